// The front end (in-process harness) with ingest running beside it on the same database and Redis
// prefix, as the cross-service tests use it; `stopIngest`/`startIngest` let a test hold ingest
// back (so a restart recovers slowly) and bring it back.
import { Redis } from 'ioredis';
import { startIngest, type Ingest } from '@pmx/ingest';
import { createTempDir, testkitConfig, type TempDir } from '@pmx/testkit';
import { join } from 'node:path';
import { startClob, type Harness } from '@pmx/clob/testing';
import { startEdge, type EdgeHarness } from '@pmx/edge/testing';

export interface ClobWithIngest {
  h: Harness;
  /** Where clients reach the clob: through the edge when it runs, else the clob's direct port. */
  url: string;
  stopIngest(): Promise<void>;
  startIngest(): Promise<void>;
  /** Stops ingest, then the front end (dropping its database and Redis prefix), then removes the history folder. */
  close(): Promise<void>;
}

/**
 * `history`: the front end also copies the ledger to embedded ClickHouse, in a temp folder of its own.
 * `edge`: HAProxy in front of the clob, as clients reach it (`url`).
 */
export async function startClobWithIngest(
  env: Record<string, string> = {},
  options: { history?: boolean; edge?: boolean } = {},
): Promise<ClobWithIngest> {
  const dir: TempDir | undefined =
    options.history === true || options.edge === true ? await createTempDir() : undefined;
  let h: Harness | undefined;
  let edge: EdgeHarness | undefined;
  let redis: Redis | undefined;
  let ingest: Ingest | undefined;
  const close = async () => {
    try {
      await edge?.close();
      await ingest?.close();
    } finally {
      redis?.disconnect();
      try {
        await h?.close(); // drops the database and the Redis prefix
      } finally {
        await dir?.remove();
      }
    }
  };
  try {
    const socket: Record<string, string> =
      options.edge === true ? { PMX_CLOB_SOCKET: join(dir!.path, 'clob.sock') } : {};
    const history: Record<string, string> =
      options.history === true ? { PMX_HISTORY: 'true', PMX_CLICKHOUSE_PATH: join(dir!.path, 'ch') } : {};
    h = await startClob({ ...env, ...history, ...socket });
    if (options.edge === true) edge = await startEdge(socket);
    redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
    const harness = h;
    const connection = redis;
    const start = async () => {
      ingest = await startIngest({ sql: harness.sql, redis: connection, prefix: harness.redisPrefix, shards: 2 });
    };
    await start();
    return {
      h: harness,
      url: edge?.clobUrl ?? harness.url,
      async stopIngest() {
        await ingest?.close();
        ingest = undefined;
      },
      startIngest: start,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// The front end (in-process harness) with ingest running beside it on the same database and Redis
// prefix, as the cross-service tests use it; `stopIngest`/`startIngest` let a test hold ingest
// back (so a restart recovers slowly) and bring it back.
import { Redis } from 'ioredis';
import { startIngest, type Ingest } from '@pmx/ingest';
import { createTempDir, testkitConfig, type TempDir } from '@pmx/testkit';
import { startClob, type Harness } from '@pmx/clob/testing';

export interface ClobWithIngest {
  h: Harness;
  stopIngest(): Promise<void>;
  startIngest(): Promise<void>;
  /** Stops ingest, then the front end (dropping its database and Redis prefix), then removes the history folder. */
  close(): Promise<void>;
}

/** `history`: the front end also copies the ledger to embedded ClickHouse, in a temp folder of its own. */
export async function startClobWithIngest(
  env: Record<string, string> = {},
  options: { history?: boolean } = {},
): Promise<ClobWithIngest> {
  const dir: TempDir | undefined = options.history === true ? await createTempDir() : undefined;
  let h: Harness | undefined;
  let redis: Redis | undefined;
  let ingest: Ingest | undefined;
  const close = async () => {
    try {
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
    h = await startClob(dir === undefined ? env : { ...env, PMX_HISTORY: 'true', PMX_CLICKHOUSE_PATH: dir.path });
    redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
    const harness = h;
    const connection = redis;
    const start = async () => {
      ingest = await startIngest({ sql: harness.sql, redis: connection, prefix: harness.redisPrefix, shards: 2 });
    };
    await start();
    return {
      h: harness,
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

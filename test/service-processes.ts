// The trading front end and ingest as real processes (`node --import tsx services/<name>/src/main.ts`)
// over a test database, Redis prefix and history folder of their own, on a fixed port, so that a
// test can SIGKILL either at any point and start it again. `close` stops both and leaves nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { shardQueueName } from '@pmx/events';
import {
  cleanupRedisPrefix,
  createTempDir,
  createTestDatabase,
  operatorCall,
  testkitConfig,
  testRedisPrefix,
  type TempDir,
  type TestDatabase,
} from '@pmx/testkit';

const repo = fileURLToPath(new URL('..', import.meta.url));

export type ServiceName = 'clob' | 'ingest';

export interface ServiceProcesses {
  url: string;
  operatorKey: string;
  db: TestDatabase;
  /** What the processes printed, for failure messages. */
  output: string[];
  start(name: ServiceName): void;
  /** SIGKILL, and wait for the exit. */
  kill(name: ServiceName): Promise<void>;
  /** Until the front end answers and every shard has recovered. */
  ready(): Promise<void>;
  /** Until ingest has taken every job out of the shard queues. */
  drained(): Promise<void>;
  operator(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function serviceProcesses(shards = 2): Promise<ServiceProcesses> {
  const db = await createTestDatabase();
  const dir: TempDir = await createTempDir();
  const prefix = testRedisPrefix();
  const redis = new Redis(testkitConfig.redisUrl);
  // Fixed across restarts, so not the kernel's pick: below Linux's ephemeral range (32768–60999),
  // where outgoing connections of the parallel test files take their local ports.
  const port = 20_000 + 2 * randomInt(6_000);
  const url = `http://127.0.0.1:${port}`;
  const operatorKey = randomBytes(16).toString('hex');
  const processes = new Map<ServiceName, ChildProcess>();
  const output: string[] = [];
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PMX_PG_URL: db.url,
    PMX_REDIS_URL: testkitConfig.redisUrl,
    PMX_REDIS_PREFIX: prefix.slice(0, -1),
    PMX_SHARDS: String(shards),
    PMX_VERIFY_THREADS: '1',
    PMX_CLOB_DIRECT_PORT: String(port),
    PMX_OPERATOR_KEY: operatorKey,
    PMX_INGEST_HISTORY: 'false',
    PMX_CLICKHOUSE_PATH: dir.path,
  });
  const kill = async (name: ServiceName) => {
    const child = processes.get(name);
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const operator = (method: string, path: string, body?: unknown): Promise<any> =>
    operatorCall(url, operatorKey, method, path, body);
  return {
    url,
    operatorKey,
    db,
    output,
    start(name) {
      const child = spawn(process.execPath, ['--import', 'tsx', `services/${name}/src/main.ts`], {
        cwd: repo,
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const keep = (chunk: Buffer) => output.push(`[${name}] ${chunk.toString().trimEnd()}`);
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      processes.set(name, child);
    },
    kill,
    async ready() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const state = await operator('GET', '/operator/state').catch(() => undefined);
        if (state?.ready) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`front end not ready:\n${output.slice(-30).join('\n')}`);
    },
    async drained() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        let left = 0;
        for (let shard = 0; shard < shards; shard++) {
          const queue = new Queue(shardQueueName(shard), { connection: redis, prefix: prefix.slice(0, -1) });
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          left += Object.values(counts).reduce((a, b) => a + b, 0);
          await queue.close();
        }
        if (left === 0) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('ingest did not drain the shard queues');
    },
    operator,
    async close() {
      await kill('clob');
      await kill('ingest');
      await cleanupRedisPrefix(redis, prefix);
      redis.disconnect();
      await db.drop();
      await dir.remove();
    },
  };
}

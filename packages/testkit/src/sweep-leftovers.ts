// Removes what killed test runs left behind: test databases, Redis key prefixes, temp directories
// and the processes (HAProxy) run from them, whose owner tag (owner-tag.ts) names a process of this host that has ended. Runs
// once before every vitest run (test/global-setup.ts). Resources of live processes, of other
// hosts and without a tag are never touched, so concurrent runs on one server stay safe.
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { connectPostgres, dropDatabase } from '@pmx/db';
import { testkitConfig } from './config.ts';
import { isDeadOwner, OWNER_TAG_PATTERN } from './owner-tag.ts';
import { cleanupRedisPrefix, TEST_REDIS_PREFIX } from './redis-prefix.ts';
import { TEST_DATABASE_PREFIX } from './test-database.ts';

export interface Swept {
  databases: string[];
  redisPrefixes: string[];
  tempDirs: string[];
  /** Processes (an edge's HAProxy) whose command line names a file in a dead owner's temp directory. */
  processes: number[];
}

const DATABASE = new RegExp(`^${TEST_DATABASE_PREFIX}${OWNER_TAG_PATTERN}_[0-9a-f]{12}$`);
const REDIS_KEY = new RegExp(`^(${TEST_REDIS_PREFIX}${OWNER_TAG_PATTERN}_[0-9a-f]{12}:)`);
const TEMP_DIR = new RegExp(`^pmx-[a-z0-9-]*?${OWNER_TAG_PATTERN}-[A-Za-z0-9]{6}$`);

export async function sweepLeftovers(
  options: { pgUrl?: string; redisUrl?: string; tempRoot?: string } = {},
): Promise<Swept> {
  const root = options.tempRoot ?? tmpdir();
  const processes = await sweepProcesses(root);
  const [databases, redisPrefixes, tempDirs] = await Promise.all([
    sweepDatabases(options.pgUrl ?? testkitConfig.pgUrl),
    sweepRedis(options.redisUrl ?? testkitConfig.redisUrl),
    sweepTempDirs(root),
  ]);
  return { databases, redisPrefixes, tempDirs, processes };
}

function deadOwner(match: RegExpMatchArray | null, first: number): boolean {
  return match !== null && isDeadOwner(match[first]!, Number(match[first + 1]));
}

async function sweepDatabases(serverUrl: string): Promise<string[]> {
  const admin = connectPostgres(serverUrl, { max: 1 });
  try {
    const rows = await admin<{ datname: string }[]>`
      SELECT datname FROM pg_database WHERE starts_with(datname, ${TEST_DATABASE_PREFIX})`;
    const dead = rows.map((row) => row.datname).filter((name) => deadOwner(name.match(DATABASE), 1));
    for (const name of dead) await dropDatabase(admin, name);
    return dead;
  } finally {
    await admin.end({ timeout: 1 });
  }
}

async function sweepRedis(redisUrl: string): Promise<string[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const dead = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${TEST_REDIS_PREFIX}*`, 'COUNT', 1000);
      for (const key of keys) {
        const match = key.match(REDIS_KEY);
        if (deadOwner(match, 2)) dead.add(match![1]!);
      }
      cursor = next;
    } while (cursor !== '0');
    for (const prefix of dead) await cleanupRedisPrefix(redis, prefix);
    return [...dead];
  } finally {
    redis.disconnect();
  }
}

async function sweepTempDirs(root: string): Promise<string[]> {
  const dead = (await readdir(root)).filter((name) => deadOwner(name.match(TEMP_DIR), 1));
  for (const name of dead) await rm(path.join(root, name), { recursive: true, force: true });
  return dead;
}

/** A process killed with its test run leaves its children (HAProxy runs in the foreground) behind. */
async function sweepProcesses(root: string): Promise<number[]> {
  const killed: number[] = [];
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const dir = argv
      .filter((arg) => arg.startsWith(prefix))
      .map((arg) => arg.slice(prefix.length).split(path.sep)[0]!)
      .find((name) => deadOwner(name.match(TEMP_DIR), 1));
    if (dir === undefined) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

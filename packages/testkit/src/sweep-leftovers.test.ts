// Runs against the real Postgres and Redis of infra/setup.sh, and the OS temp dir.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { connectPostgres, createDatabase, databaseExists, dropDatabase } from '@pmx/db';
import { testkitConfig } from './config.ts';
import { ownerTag } from './owner-tag.ts';
import { cleanupRedisPrefix } from './redis-prefix.ts';
import { sweepLeftovers } from './sweep-leftovers.ts';

const admin = connectPostgres(testkitConfig.pgUrl, { max: 1 });
const redis = new Redis(testkitConfig.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
afterAll(async () => {
  await admin.end();
  await redis.quit();
});

/** The pid of a process that has just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('sweepLeftovers', () => {
  it("removes the databases, Redis prefixes and temp dirs of ended processes, and nobody else's", async () => {
    const hex = () => randomBytes(6).toString('hex');
    const dead = ownerTag(deadPid());
    const live = ownerTag();
    const otherHost = dead.replace(/^o[0-9a-f]{8}/, (tag) => (tag === 'o00000000' ? 'o00000001' : 'o00000000'));
    const owners = { dead, live, otherHost };

    const names = Object.fromEntries(
      Object.entries(owners).map(([k, tag]) => [
        k,
        {
          database: `pmx_test_${tag}_${hex()}`,
          prefix: `pmxtest:${tag}_${hex()}:`,
          dir: path.join(tmpdir(), `pmx-sweep-test-${tag}-${hex().slice(0, 6)}`),
        },
      ]),
    ) as Record<keyof typeof owners, { database: string; prefix: string; dir: string }>;
    for (const n of Object.values(names)) {
      await createDatabase(admin, n.database);
      await redis.set(`${n.prefix}bull:q:events`, '1');
      await redis.set(`${n.prefix}other`, '1');
      mkdirSync(path.join(n.dir, 'inner'), { recursive: true });
    }
    try {
      const swept = await sweepLeftovers();
      expect(swept.databases).toContain(names.dead.database);
      expect(swept.redisPrefixes).toContain(names.dead.prefix);
      expect(swept.tempDirs).toContain(path.basename(names.dead.dir));
      expect(await databaseExists(admin, names.dead.database)).toBe(false);
      expect(await redis.exists(`${names.dead.prefix}bull:q:events`, `${names.dead.prefix}other`)).toBe(0);
      expect(existsSync(names.dead.dir)).toBe(false);

      for (const kept of [names.live, names.otherHost]) {
        expect(swept.databases).not.toContain(kept.database);
        expect(await databaseExists(admin, kept.database)).toBe(true);
        expect(await redis.exists(`${kept.prefix}bull:q:events`, `${kept.prefix}other`)).toBe(2);
        expect(existsSync(kept.dir)).toBe(true);
      }
    } finally {
      for (const n of Object.values(names)) {
        await dropDatabase(admin, n.database);
        await cleanupRedisPrefix(redis, n.prefix);
        rmSync(n.dir, { recursive: true, force: true });
      }
    }
  });
});

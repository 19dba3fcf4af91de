// Runs against the real Postgres and Redis of infra/setup.sh, and the OS temp dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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

const hex6 = () => randomBytes(3).toString('hex');

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

  it("kills a process run from a dead owner's temp dir (an edge left by a killed run), and not a live owner's", async () => {
    const tags = { dead: ownerTag(deadPid()), live: ownerTag() };
    const dirs = Object.fromEntries(
      Object.entries(tags).map(([k, tag]) => [k, path.join(tmpdir(), `pmx-sweep-proc-${tag}-${hex6()}`)]),
    ) as Record<keyof typeof tags, string>;
    // Stand-ins for `haproxy -db -f <dir>/haproxy.cfg`: a process whose command line names a file there.
    const runs = Object.fromEntries(
      Object.entries(dirs).map(([k, dir]) => {
        mkdirSync(dir, { recursive: true });
        const args = ['-e', 'setTimeout(() => {}, 600000)', path.join(dir, 'haproxy.cfg')];
        return [k, spawn(process.execPath, args, { stdio: 'ignore' })];
      }),
    ) as Record<keyof typeof tags, ChildProcess>;
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const ended = new Promise((resolve) => runs.dead.once('exit', resolve));
      const swept = await sweepLeftovers();
      expect(swept.processes).toContain(runs.dead.pid);
      expect(swept.processes).not.toContain(runs.live.pid);
      await ended;
      expect(runs.live.exitCode).toBe(null);
    } finally {
      for (const child of Object.values(runs)) child.kill('SIGKILL');
      for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
    }
  });
});

// One front end per ledger: a second one on the same database is refused at start, whatever its
// port, instead of running its own copy of the books and balances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStartFailure } from '@pmx/config';
import { testkitConfig } from '@pmx/testkit';
import { createClobApp } from '../app.ts';
import { loadClobConfig } from '../config.ts';
import { startClob, type Harness } from '../testing/clob-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClob();
});
afterAll(async () => {
  await h?.close();
});

describe('shard ownership', () => {
  it('refuses a second front end on the same ledger in one line, and leaves the first serving', async () => {
    const second = loadClobConfig({ PMX_PG_URL: 'postgres://unused@127.0.0.1/unused', PMX_REDIS_URL: testkitConfig.redisUrl, PMX_REDIS_PREFIX: 'pmxtest-unused', PMX_CLOB_PORT: '0', PMX_SHARDS: '2', PMX_HISTORY: 'false' });
    const refused = await createClobApp(second, { sql: h.sql }).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(describeStartFailure(refused)).toBe('cannot start: shard 0 is owned by another clob process on this ledger (2 shards here): stop it first, or give this one its own database');
    expect((await fetch(`${h.url}/time`)).status).toBe(200);
    // A restart gives the shards up first, then takes them again.
    await h.restart();
    expect((await fetch(`${h.url}/time`)).status).toBe(200);
  });
});

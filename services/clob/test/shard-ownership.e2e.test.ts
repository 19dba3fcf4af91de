// One front end per ledger: a second one on the same database is refused at start, whatever its
// port, instead of running its own copy of the books and balances.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStartFailure } from '@pmx/config';
import { connectPostgres, type Sql } from '@pmx/db';
import { createTestDatabase, relayTo, testkitConfig } from '@pmx/testkit';
import { createClobApp } from '../src/app.ts';
import { loadClobConfig } from '../src/config.ts';
import { startClob, type Harness } from '../src/testing/clob-harness.ts';
import { ShardOwnership } from '../src/shards/shard-ownership.ts';

let h: Harness;

/** The sessions holding a database's shard locks, and how many each holds. */
const lockHolders = (sql: Sql) => sql<{ pid: number; n: number }[]>`
  SELECT pid, count(*)::int AS n FROM pg_locks
   WHERE locktype = 'advisory' AND granted AND classid::int8 = ${0x706d78}::int8 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
   GROUP BY pid`;
/** The one session holding the harness's shard locks, if any. */
const holder = async () => (await lockHolders(h.sql))[0];
/** Whether one session other than `before` now holds both shard locks (taken again). */
const retakenFrom = async (sql: Sql, before: number) => {
  const [now, ...more] = await lockHolders(sql);
  return now !== undefined && now.n === 2 && now.pid !== before && more.length === 0;
};

/**
 * This process's ownership of a fresh database's shards over a link `wire` joins up, and every
 * loss told; all closed and dropped after `run`.
 */
async function withRelayedOwnership(
  wire: (client: net.Socket, server: net.Socket) => void,
  run: (o: { db: { sql: Sql }; lost: Error[] }) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase({ migrate: false });
  const relay = await relayTo(db.url, wire);
  const sql = connectPostgres(relay.url, { max: 4 });
  const lost: Error[] = [];
  const own = await ShardOwnership.claim(sql, 2, (error) => lost.push(error));
  try {
    await run({ db, lost });
  } finally {
    await own.release();
    await sql.end({ timeout: 1 });
    relay.close();
    await db.drop();
  }
}
beforeAll(async () => {
  h = await startClob();
});
afterAll(async () => {
  await h?.close();
});

describe('shard ownership', () => {
  it('refuses a second front end on the same ledger in one line, and leaves the first serving', async () => {
    const second = loadClobConfig({
      PMX_PG_URL: 'postgres://unused@127.0.0.1/unused',
      PMX_REDIS_URL: testkitConfig.redisUrl,
      PMX_REDIS_PREFIX: 'pmxtest-unused',
      PMX_CLOB_DIRECT_PORT: '0',
      PMX_SHARDS: '2',
      PMX_HISTORY: 'false',
    });
    const refused = await createClobApp(second, { sql: h.sql }).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(describeStartFailure(refused)).toBe(
      'cannot start: shard 0 is owned by another clob process on this ledger (2 shards here): stop it first, or give this one its own database',
    );
    expect((await fetch(`${h.url}/time`)).status).toBe(200);
    // A restart gives the shards up first, then takes them again.
    await h.restart();
    expect((await fetch(`${h.url}/time`)).status).toBe(200);
  });

  it('takes the locks again when their session drops, and halts if another process has them by then', async () => {
    const { yes } = await h.createMarket();
    const first = await holder();
    expect(first?.n).toBe(2);
    await h.sql`SELECT pg_terminate_backend(${first!.pid})`;
    // Taken again on a new session; the front end goes on serving.
    await expect.poll(() => retakenFrom(h.sql, first!.pid), { timeout: 10_000 }).toBe(true);
    expect((await fetch(`${h.url}/time`)).status).toBe(200);

    // Dropped again, and another process takes the shards first: this one halts trading.
    const again = await holder();
    await h.sql`SELECT pg_terminate_backend(${again!.pid})`;
    await expect.poll(async () => (await holder()) === undefined).toBe(true);
    const other = await ShardOwnership.claim(h.sql, 2, () => {});
    try {
      const fatal = await h.app.fatal;
      expect(fatal.message).toMatch(
        /^the shard locks were lost with their Postgres session and another process has them now: /,
      );
      const book = await fetch(`${h.url}/book?token_id=${yes}`);
      expect(book.status).toBe(503);
    } finally {
      await other.release();
    }
  });

  it('keeps the shards through a slow spell of Postgres in which their session is lost (a failover), not halting on its own locks', async () => {
    // A link to Postgres that can be held up, as a failover or a congested network does.
    let stalled = false;
    const held: (() => void)[] = [];
    const stallable = (client: net.Socket, server: net.Socket) => {
      const pipe = (from: net.Socket, to: net.Socket) =>
        from.on('data', (bytes: Buffer) => (stalled ? held.push(() => to.write(bytes)) : to.write(bytes)));
      pipe(client, server);
      pipe(server, client);
      for (const socket of [client, server]) socket.on('close', () => (client.destroy(), server.destroy()));
    };
    await withRelayedOwnership(stallable, async ({ db, lost }) => {
      const [before] = await lockHolders(db.sql);
      // Held up for two checks' time; the lock session is ended meanwhile. Both checks then find it
      // gone at once: the first takes the locks again, and the second must not take that for a loss.
      stalled = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await db.sql`SELECT pg_terminate_backend(${before!.pid})`;
      await new Promise((resolve) => setTimeout(resolve, 4000));
      stalled = false;
      for (const send of held.splice(0)) send();
      await expect.poll(() => retakenFrom(db.sql, before!.pid), { timeout: 10_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(lost).toEqual([]);
    });
  }, 30_000);

  /** A pool whose reserve() can wait on a gate, and whose next query can be made to hang. */
  function gated(real: Sql) {
    const state = {
      gate: Promise.resolve(),
      hangNext: false,
      hangNextReserve: false,
      reserveDelayMs: 0,
      reserves: 0,
      queries: 0,
    };
    const wrapped = ((...args: unknown[]) => {
      state.queries++;
      if (state.hangNext) {
        state.hangNext = false;
        return new Promise(() => {}); // a connection the network black-holed
      }
      return (real as unknown as (...a: unknown[]) => unknown)(...args);
    }) as unknown as Sql;
    (wrapped as { reserve: Sql['reserve'] }).reserve = (async () => {
      state.reserves++;
      if (state.hangNextReserve) {
        state.hangNextReserve = false;
        await new Promise(() => {}); // a pool that never hands out a connection
      }
      await state.gate;
      await new Promise((resolve) => setTimeout(resolve, state.reserveDelayMs));
      return real.reserve();
    }) as Sql['reserve'];
    return { sql: wrapped, state };
  }

  it('gives up the locks a check takes again while the shards are being released (a restart in the same process)', async () => {
    const db = await createTestDatabase({ migrate: false });
    const real = connectPostgres(db.url, { max: 4 });
    const { sql, state } = gated(real);
    try {
      const own = await ShardOwnership.claim(sql, 2, () => {});
      let open!: () => void;
      state.gate = new Promise((resolve) => (open = resolve));
      const reserves = state.reserves;
      await db.sql`SELECT pg_terminate_backend(${(await lockHolders(db.sql))[0]!.pid})`;
      await expect.poll(() => state.reserves > reserves, { timeout: 10_000 }).toBe(true); // taking them again
      const released = own.release();
      open();
      await released;
      // The take does not finish after the release and keep the locks.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await lockHolders(db.sql)).toEqual([]);
      await (await ShardOwnership.claim(real, 2, () => {})).release();
    } finally {
      await real.end({ timeout: 1 });
      await db.drop();
    }
  }, 30_000);

  /**
   * This process's ownership over a pool the test can hold up (`gated`), another pool for "another
   * process", and every loss told; all closed and dropped after `run`.
   */
  async function withOwnership(
    run: (o: {
      own: ShardOwnership;
      state: ReturnType<typeof gated>['state'];
      lost: Error[];
      db: { sql: Sql };
      claimElsewhere: () => Promise<void>;
    }) => Promise<void>,
  ): Promise<void> {
    const db = await createTestDatabase({ migrate: false });
    const real = connectPostgres(db.url, { max: 4 });
    const { sql, state } = gated(real);
    const thief = connectPostgres(db.url, { max: 2 });
    const lost: Error[] = [];
    const own = await ShardOwnership.claim(sql, 2, (error) => lost.push(error));
    let other: ShardOwnership | undefined;
    try {
      await run({
        own,
        state,
        lost,
        db,
        claimElsewhere: async () => void (other = await ShardOwnership.claim(thief, 2, () => {})),
      });
    } finally {
      await other?.release();
      await own.release();
      await thief.end({ timeout: 1 });
      await real.end({ timeout: 1 });
      await db.drop();
    }
  }

  it(
    'goes on checking past a check that never gets an answer, and halts once another process has the shards',
    () =>
      withOwnership(async ({ state, lost, db, claimElsewhere }) => {
        state.hangNext = true;
        await expect.poll(() => state.hangNext, { timeout: 5000 }).toBe(false); // the hung check began
        await db.sql`SELECT pg_terminate_backend(${(await lockHolders(db.sql))[0]!.pid})`;
        await expect.poll(async () => (await lockHolders(db.sql)).length, { timeout: 5000 }).toBe(0);
        await claimElsewhere();
        // Checks run on after the hung one, or both processes would run the books.
        await expect.poll(() => lost.length, { timeout: 15_000, interval: 200 }).toBe(1);
        expect(lost[0]!.message).toMatch(/another process has them now/);
      }),
    40_000,
  );

  it(
    'halts while a re-take never gets a connection, once another process has the shards; a release never waits for ever',
    () =>
      withOwnership(async ({ own, state, lost, db, claimElsewhere }) => {
        state.hangNextReserve = true;
        await db.sql`SELECT pg_terminate_backend(${(await lockHolders(db.sql))[0]!.pid})`;
        await expect.poll(() => state.hangNextReserve, { timeout: 5000 }).toBe(false); // the re-take hangs
        await claimElsewhere();
        // Checks run on while the re-take hangs, or both processes would run the books.
        await expect.poll(() => lost.length, { timeout: 20_000, interval: 200 }).toBe(1);
        // A release whose queries get no answer returns after a check's deadline.
        state.hangNext = true;
        const started = performance.now();
        await own.release();
        expect(performance.now() - started).toBeLessThan(8000);
      }),
    60_000,
  );

  it(
    'sees the loss while every re-take is slower than a check, from who holds the locks',
    () =>
      withOwnership(async ({ state, lost, db, claimElsewhere }) => {
        state.reserveDelayMs = 7000; // a pool that hands out connections only after a check's deadline
        await db.sql`SELECT pg_terminate_backend(${(await lockHolders(db.sql))[0]!.pid})`;
        await expect.poll(() => state.reserves, { timeout: 5000 }).toBeGreaterThan(0); // re-taking
        await claimElsewhere();
        // A slow re-take is not abandoned with its refusal: the loss is told.
        await expect.poll(() => lost.length, { timeout: 10_000, interval: 200 }).toBe(1);
        expect(lost[0]!.message).toMatch(/another process has them now: the session \d+ holds 2 of them/);
      }),
    60_000,
  );

  it('survives a re-take whose connection is cut mid-way, and takes the locks again', async () => {
    // A link to Postgres that, once armed, cuts the client's side of the next take after its first lock.
    let trap = false;
    const cuttable = (client: net.Socket, server: net.Socket) => {
      let sawLock = false;
      let cut = false;
      client.on('data', (bytes: Buffer) => {
        if (cut) return;
        if (trap && sawLock) {
          cut = true;
          trap = false;
          setTimeout(() => client.destroy(), 100);
          return;
        }
        if (bytes.includes('pg_try_advisory_lock')) sawLock = true;
        server.write(bytes);
      });
      server.on('data', (bytes: Buffer) => void (cut || client.write(bytes)));
      client.on('close', () => void (cut || server.destroy()));
      server.on('close', () => client.destroy());
    };
    await withRelayedOwnership(cuttable, async ({ db, lost }) => {
      const first = (await lockHolders(db.sql))[0]!.pid;
      trap = true;
      await db.sql`SELECT pg_terminate_backend(${first})`;
      // The take must not query its dead connection to give its lock back: postgres.js would throw
      // out of its own callback and crash the process (vitest would report an unhandled error).
      await expect.poll(() => trap, { timeout: 5000 }).toBe(false);
      await expect.poll(() => retakenFrom(db.sql, first), { timeout: 15_000, interval: 200 }).toBe(true);
      expect(lost).toEqual([]);
    });
  }, 40_000);
});

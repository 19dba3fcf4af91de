// Operator transfers whose answer from Postgres is lost after the commit (the connection cut right
// then): written exactly once, and the risk book agreeing with the ledger. Real Postgres, through
// a link that cuts the connection on cue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Sql } from '@pmx/db';
import { COLLATERAL, RiskBook } from '@pmx/risk';
import { createTestDatabase, cuttingRelay, type PgRelay, type TestDatabase } from '@pmx/testkit';
import { readLedgerState } from '../src/recovery/ledger-state.ts';
import { startClob } from '../src/testing/clob-harness.ts';
import { Funding, Unsettled } from '../src/risk/funding.ts';

const REFUSED = `0x${'bad'.padEnd(40, '0')}`;

let db: TestDatabase;
const links: { relay: PgRelay; sql: Sql }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // A refusal for what the statement is: a trigger raises for this address.
  await db.sql.unsafe(`
    CREATE FUNCTION refuse_test_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
    CREATE TRIGGER refuse_test_transfer BEFORE INSERT ON operator_transfers
      FOR EACH ROW WHEN (NEW.address = '${REFUSED}') EXECUTE FUNCTION refuse_test_transfer();`);
});

afterAll(async () => {
  for (const { relay, sql } of links) {
    await sql.end({ timeout: 1 });
    relay.close();
  }
  await db?.drop();
});

/** A Funding over its own link to the test database, which loses answers on cue (cuttingRelay). */
async function setUp(name: string, options: { settleMs?: number; readOnly?: boolean } = {}) {
  const relay = await cuttingRelay(db.url);
  const sql = connectPostgres(relay.url, {
    max: 1,
    ...(options.readOnly === true ? { connection: { default_transaction_read_only: true } } : {}),
  });
  links.push({ relay, sql });
  const risk = new RiskBook();
  const lines: string[] = [];
  const funding = new Funding(sql, risk, {
    log: (line) => lines.push(line),
    backoffMs: () => 20,
    settleMs: options.settleMs,
  });
  const address = `0x${name.padEnd(40, '0')}`;
  return {
    risk,
    funding,
    lines,
    address,
    relay,
    cuts: relay.cuts,
    total: () => risk.balance(address, COLLATERAL).total,
    cutNextCommit: relay.cutNextCommit,
    cutAll: relay.cutAll,
  };
}

/** Holds `address`'s collateral balance row locked (so a transfer's ledger trigger waits) until released. */
async function lockBalance(address: string): Promise<{ release: () => Promise<void> }> {
  const holder = await db.sql.reserve();
  await holder`BEGIN`;
  await holder`SELECT 1 FROM balances WHERE address = ${address} AND asset = ${COLLATERAL} FOR UPDATE`;
  return {
    release: async () => {
      await holder`COMMIT`;
      holder.release();
    },
  };
}

/** Until a transfer's insert waits on a lock. */
async function transferWaiting(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await db.sql`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO operator_transfers%'`
        ).length,
    )
    .toBeGreaterThan(0);
}

async function ledger(address: string): Promise<{ balance: number; transfers: number }> {
  const [balance] = await db.sql<
    { amount: string }[]
  >`SELECT amount::text FROM balances WHERE address = ${address} AND asset = ${COLLATERAL}`;
  const [{ n }] = await db.sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM operator_transfers WHERE address = ${address}`;
  return { balance: Number(balance?.amount ?? 0), transfers: n };
}

describe('a transfer whose answer is lost after the commit', () => {
  it.each([
    ['without an idempotency key', 'a1', undefined],
    ['with one', 'a2', 'withdraw-once'],
  ])('a withdrawal %s is written once and stays debited: it cannot be paid again', async (_, name, key) => {
    const { funding, lines, address, total, cuts, cutNextCommit } = await setUp(name);
    expect(await funding.deposit(address, COLLATERAL, 100_000_000)).toBe('applied');
    cutNextCommit();
    expect(await funding.withdraw(address, COLLATERAL, 60_000_000, key)).toBe('applied');
    expect(cuts()).toBe(1);
    expect(lines.join('\n')).toMatch(/the write's answer was lost/);
    expect(total()).toBe(40_000_000);
    expect(await ledger(address)).toEqual({ balance: 40_000_000, transfers: 2 });
    // What the front end says is available is what the ledger holds.
    expect(await funding.withdraw(address, COLLATERAL, 100_000_000)).toBe('refused');
    if (key !== undefined) expect(await funding.withdraw(address, COLLATERAL, 60_000_000, key)).toBe('replayed');
    expect(await ledger(address)).toEqual({ balance: 40_000_000, transfers: 2 });
  });

  it('a deposit is written once and credited', async () => {
    const { funding, address, total, cuts, cutNextCommit } = await setUp('d1');
    cutNextCommit();
    expect(await funding.deposit(address, COLLATERAL, 100_000_000)).toBe('applied');
    expect(cuts()).toBe(1);
    expect(total()).toBe(100_000_000);
    expect(await ledger(address)).toEqual({ balance: 100_000_000, transfers: 1 });
  });

  it('while Postgres stays out of reach the amount stays held; a stop gives up without crediting it back', async () => {
    const { funding, address, total, relay, cutNextCommit } = await setUp('h1');
    expect(await funding.deposit(address, COLLATERAL, 100_000_000)).toBe('applied');
    cutNextCommit(() => relay.close()); // and no connection gets through any more
    const outcome = funding.withdraw(address, COLLATERAL, 60_000_000).then(
      () => 'settled',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await Promise.race([outcome, 'pending'])).toBe('pending');
    expect(total()).toBe(40_000_000);
    funding.close();
    expect(await outcome).toBeInstanceOf(Unsettled);
    expect(total()).toBe(40_000_000); // the ledger has it (the next start reads it from there)
    expect(await ledger(address)).toEqual({ balance: 40_000_000, transfers: 2 });
  });

  it('recovery reads the ledger only once a transfer whose client is gone has settled (it still commits)', async () => {
    const { funding, address, cutAll } = await setUp('v1');
    expect(await funding.deposit(address, COLLATERAL, 100_000_000)).toBe('applied');
    const lock = await lockBalance(address);
    const withdrawal = funding.withdraw(address, COLLATERAL, 60_000_000, 'withdraw-in-flight');
    await transferWaiting();
    cutAll(); // its client is gone; its insert waits on in Postgres
    const read = readLedgerState(db.sql, () => undefined, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await Promise.race([read.then(() => 'read'), 'waiting'])).toBe('waiting');
    await lock.release();
    const holdings = (await read).holdings.filter((h) => h.address === address);
    expect(holdings).toEqual([{ address, asset: COLLATERAL, amount: 40_000_000 }]);
    expect(await withdrawal).toBe('applied');
    expect(await ledger(address)).toEqual({ balance: 40_000_000, transfers: 2 });
  });

  it('recovery waiting on a transfer a session holds open says which session, every 5 s', async () => {
    const holder = await db.sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`INSERT INTO operator_transfers (address, asset, amount) VALUES (${'0x' + 'e1'.repeat(20)}, ${COLLATERAL}, 1)`;
      const [{ pid }] = await holder<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const lines: string[] = [];
      const read = readLedgerState(
        db.sql,
        () => undefined,
        Date.now(),
        (line) => lines.push(line),
      );
      await expect.poll(() => lines.length, { timeout: 8000 }).toBeGreaterThan(0);
      expect(lines[0]).toBe(`recovery waits for writes to operator_transfers still open in Postgres (sessions ${pid})`);
      // A stopped recovery's read gives up at its next turn rather than go on taking the lock.
      const stop = new AbortController();
      const stopped = readLedgerState(
        db.sql,
        () => undefined,
        Date.now(),
        () => stop.abort(),
        stop.signal,
      );
      await expect(stopped).rejects.toThrow(/recovery stopped/);
      await holder`ROLLBACK`;
      expect((await read).holdings.filter((h) => h.address === '0x' + 'e1'.repeat(20))).toEqual([]);
    } finally {
      holder.release();
    }
  }, 20_000);

  it('a request not settled in time is answered Unsettled with its key; the transfer goes on, and the key tells its outcome once', async () => {
    const { funding, address, total } = await setUp('u1', { settleMs: 300 });
    expect(await funding.deposit(address, COLLATERAL, 100_000_000)).toBe('applied');
    const lock = await lockBalance(address);
    const late = await funding.withdraw(address, COLLATERAL, 60_000_000).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(Unsettled);
    const key = (late as Unsettled).key;
    expect(key).toMatch(/^auto-/);
    expect((late as Error).message).toContain(`send it again with idempotency_key ${key}`);
    expect(total()).toBe(40_000_000); // held meanwhile
    const retry = funding.withdraw(address, COLLATERAL, 60_000_000, key); // waits for the first
    await lock.release();
    expect(await retry).toBe('replayed');
    expect(total()).toBe(40_000_000);
    expect(await ledger(address)).toEqual({ balance: 40_000_000, transfers: 2 });
  });

  it('a refusal of the database, not of the transfer (read-only), fails at once and writes nothing', async () => {
    const { funding, lines, address, total } = await setUp('o1', { readOnly: true });
    await expect(funding.deposit(address, COLLATERAL, 1_000_000)).rejects.toMatchObject({ code: '25006' });
    expect(total()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('a transfer Postgres refuses outright is not sent again: a deposit is not credited, a withdrawal is credited back', async () => {
    const { risk, funding, lines } = await setUp('r1');
    await expect(funding.deposit(REFUSED, COLLATERAL, 1_000_000)).rejects.toMatchObject({ code: 'P0001' });
    expect(risk.balance(REFUSED, COLLATERAL).total).toBe(0);
    risk.credit(REFUSED, COLLATERAL, 5_000_000);
    await expect(funding.withdraw(REFUSED, COLLATERAL, 1_000_000)).rejects.toMatchObject({ code: 'P0001' });
    expect(risk.balance(REFUSED, COLLATERAL).total).toBe(5_000_000);
    expect(lines).toEqual([]);
    expect(await ledger(REFUSED)).toEqual({ balance: 0, transfers: 0 });
  });
});

describe('a clob recovering while a session holds a transfer open', () => {
  it('stops at once, without waiting for the recovery read (and so for that session)', async () => {
    const h = await startClob();
    const holder = await h.sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`INSERT INTO operator_transfers (address, asset, amount) VALUES (${'0x' + 'e2'.repeat(20)}, ${COLLATERAL}, 1)`;
      await h.restart({ waitReady: false });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(h.app.core.allReady(2)).toBe(false);
      const started = Date.now();
      await h.restart({ waitReady: false });
      expect(Date.now() - started).toBeLessThan(5000);
      await holder`ROLLBACK`;
      await h.app.ready;
    } finally {
      holder.release();
      await h.close();
    }
  }, 30_000);
});

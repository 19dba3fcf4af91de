// Custody movements and lifecycle steps in the ledger: a split buys both tokens at half the
// collateral each (the odd base unit to token1), a merge sells them at those halves, a redemption
// sells each token at what it paid; the market's state, payouts and times follow its steps, its
// catalog market closes with it, and a replayed batch changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLATERAL } from '@pmx/risk';
import { checkLedger } from '@pmx/ledger';
import type { ShardEvent, ShardJob } from '@pmx/events';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { deposit, insertMarket, testMarket, TOKEN } from '../testing/ledger-fixtures.ts';
import { MarketDirectory } from './market-directory.ts';
import { ShardLedger } from './shard-ledger.ts';

let db: TestDatabase;
const market = testMarket('custody');
const [yes, no] = market.tokens;

beforeAll(async () => {
  db = await createTestDatabase();
  await insertMarket(db.sql, market);
  await db.sql`INSERT INTO catalog_markets (condition_id, question, slug) VALUES (${market.conditionId}, 'Custody?', 'custody')`;
  await deposit(db.sql, 'alice', COLLATERAL, 10 * TOKEN);
});

afterAll(async () => {
  await db?.drop();
});

type Custody = Extract<ShardEvent, { type: 'custody' }>;

function custody(seq: number, op: Custody['op'], tokens: [number, number], collateral: number): Custody {
  const payouts: [number, number] | null = op === 'redeem' ? [TOKEN, 0] : null;
  return {
    type: 'custody',
    seq,
    at: 1_000 * seq,
    id: `c${seq}`,
    market: market.conditionId,
    owner: 'alice',
    op,
    tokens,
    collateral,
    payouts,
  };
}

function job(events: ShardEvent[], shard = 0): ShardJob {
  return { shard, fromSeq: events[0]!.seq, toSeq: events.at(-1)!.seq, events };
}

async function holdings() {
  const rows = await db.sql<
    { asset: string; amount: string }[]
  >`SELECT asset, amount::text FROM balances WHERE address = 'alice'`;
  return Object.fromEntries(rows.map((r) => [r.asset, Number(r.amount)]));
}

async function positions() {
  const rows = await db.sql<
    { asset: string; size: string; cost_basis: string; realized_pnl: string; total_bought: string }[]
  >`
    SELECT asset, size::text, cost_basis::text, realized_pnl::text, total_bought::text FROM positions WHERE address = 'alice'`;
  return Object.fromEntries(
    rows.map((r) => [r.asset, [r.size, r.cost_basis, r.realized_pnl, r.total_bought].map(Number)]),
  );
}

describe('custody movements in the ledger', () => {
  it('splits, merges, closes, resolves and redeems, each once, with positions at average cost', async () => {
    const ledger = new ShardLedger(db.sql, 0, new MarketDirectory(db.sql));
    const first = job([
      custody(1, 'split', [7_000_007, 7_000_007], 7_000_007),
      custody(2, 'merge', [TOKEN, TOKEN], TOKEN),
    ]);
    expect(await ledger.apply(first)).toMatchObject({ kind: 'applied', lastSeq: 2 });
    expect(await holdings()).toEqual({ [COLLATERAL]: 3_999_993, [yes]: 6_000_007, [no]: 6_000_007 });
    // [size, cost basis, realized, bought]: the split's cost 3,500,003 / 3,500,004; the merge sells
    // 1 of each at 0.5 against it (1/7.000007 of the cost: 499,999 and 500,000 base units).
    expect(await positions()).toEqual({
      [yes]: [6_000_007, 3_000_004, 1, 7_000_007],
      [no]: [6_000_007, 3_000_004, 0, 7_000_007],
    });
    const entries =
      await db.sql`SELECT cause, asset, delta::text, trade_id FROM ledger_entries WHERE seq IS NOT NULL ORDER BY id`;
    expect(entries.map((e) => [e.cause, e.asset, e.delta, e.trade_id])).toEqual([
      ['split', COLLATERAL, '-7000007', null],
      ['split', yes, '7000007', null],
      ['split', no, '7000007', null],
      ['merge', COLLATERAL, '1000000', null],
      ['merge', yes, '-1000000', null],
      ['merge', no, '-1000000', null],
    ]);

    const resolution = job([
      { type: 'lifecycle', seq: 3, at: 3_000, market: market.conditionId, state: 'closed', payouts: null },
      { type: 'lifecycle', seq: 4, at: 4_000, market: market.conditionId, state: 'resolved', payouts: [TOKEN, 0] },
      custody(5, 'redeem', [6_000_007, 6_000_007], 6_000_007),
    ]);
    expect(await ledger.apply(resolution)).toMatchObject({ kind: 'applied', lastSeq: 5 });
    expect(await ledger.apply(resolution)).toMatchObject({ kind: 'duplicate' });
    expect(await holdings()).toEqual({ [COLLATERAL]: 10 * TOKEN, [yes]: 0, [no]: 0 });
    // The winner paid 6,000,007 for a cost of 3,000,004; the loser nothing for 3,000,004.
    expect(await positions()).toEqual({
      [yes]: [0, 0, 3_000_004, 7_000_007],
      [no]: [0, 0, -3_000_004, 7_000_007],
    });
    const [row] = await db.sql`
      SELECT state, payouts::text, closed, accepting_orders, closed_at, resolved_at FROM markets WHERE condition_id = ${market.conditionId}`;
    expect(row).toEqual({
      state: 'resolved',
      payouts: '{1000000,0}',
      closed: true,
      accepting_orders: false,
      closed_at: new Date(3_000),
      resolved_at: new Date(4_000),
    });
    const [funds] = await db.sql`
      SELECT locked::text, minted::text, merged::text, paid_out::text, burnt0::text, burnt1::text
        FROM market_collateral WHERE condition_id = ${market.conditionId}`;
    expect(funds).toEqual({
      locked: '0',
      minted: '7000007',
      merged: '1000000',
      paid_out: '6000007',
      burnt0: '6000007',
      burnt1: '6000007',
    });
    const [listed] =
      await db.sql`SELECT closed, closed_time FROM catalog_markets WHERE condition_id = ${market.conditionId}`;
    expect(listed).toEqual({ closed: true, closed_time: new Date(3_000) });
    expect(await checkLedger(db.sql)).toEqual([]);
  });

  it('refuses a redemption whose amount is not what its payouts give (a corrupt event stops the shard, not the money)', async () => {
    const ledger = new ShardLedger(db.sql, 1, new MarketDirectory(db.sql));
    await expect(ledger.apply(job([custody(1, 'redeem', [5, 0], 6)], 1))).rejects.toThrow(
      'redemption c1 pays 6, its payouts give 5',
    );
    expect(await ledger.lastSeq()).toBe(0);
  });
});

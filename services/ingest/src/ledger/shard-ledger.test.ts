// The ledger against real Postgres, fed the real engine's events: orders, trades, fills,
// balances, positions, locked collateral — compared with the in-memory RiskBook fed the same
// events — and the sequencing rules: a replay is a no-op, a gap is refused, reused numbers throw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { checkLedger } from '@pmx/ledger';
import type { ShardJob } from '@pmx/events';
import { EngineShard, type TestMarket } from '../testing/engine-shard.ts';
import { deposit, insertMarket, testMarket, TOKEN } from '../testing/ledger-fixtures.ts';
import { MarketDirectory } from './market-directory.ts';
import { SequenceReuseError, ShardLedger } from './shard-ledger.ts';

let db: TestDatabase;
let shard: EngineShard;
let ledger: ShardLedger;
const market = testMarket('ledger');
const [YES, NO] = market.tokens;
const jobs: ShardJob[] = [];

async function run(now: number, commands: Parameters<EngineShard['batch']>[1]): Promise<ShardJob> {
  const job = shard.batch(now, commands);
  if (job === null) throw new Error('the batch produced no events');
  jobs.push(job);
  expect(await ledger.apply(job)).toMatchObject({ kind: 'applied', lastSeq: job.toSeq });
  return job;
}

/** Every (address, asset) the risk book and the ledger know, with both totals. */
async function compareWithRiskBook(book: EngineShard, addresses: string[], markets: TestMarket[]): Promise<void> {
  const rows = await db.sql<
    { address: string; asset: string; amount: string }[]
  >`SELECT address, asset, amount::text FROM balances`;
  const ledgerTotals = new Map(rows.map((r) => [`${r.address}|${r.asset}`, Number(r.amount)]));
  for (const address of addresses) {
    for (const asset of [COLLATERAL, ...markets.flatMap((m) => m.tokens)]) {
      expect(ledgerTotals.get(`${address}|${asset}`) ?? 0, `${address} ${asset}`).toBe(
        book.risk.balance(address, asset).total,
      );
    }
  }
  for (const m of markets) {
    const [row] = await db.sql<
      { locked: string }[]
    >`SELECT locked::text FROM market_collateral WHERE condition_id = ${m.conditionId}`;
    expect(Number(row?.locked ?? 0)).toBe(book.risk.lockedCollateral(m.conditionId));
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  shard = new EngineShard(3);
  ledger = new ShardLedger(db.sql, 3, new MarketDirectory(db.sql));
  await insertMarket(db.sql, market, shard);
  for (const who of ['alice', 'bob', 'dave']) await deposit(db.sql, who, COLLATERAL, 1000 * TOKEN, shard);
  await deposit(db.sql, 'carol', COLLATERAL, 500 * TOKEN, shard);
  await deposit(db.sql, 'carol', YES, 100 * TOKEN, shard);
});

afterAll(async () => {
  await db?.drop();
});

describe('a shard batch in the ledger', () => {
  it('a mint: both buyers pay their own price, get their token, and the pair locks one collateral', async () => {
    await run(1000, (ops) => {
      ops.place({
        id: 'alice-buy-yes',
        owner: 'alice',
        market,
        token: 0,
        side: Side.BUY,
        price: 40,
        size: 100 * TOKEN,
      });
      ops.place({ id: 'bob-buy-no', owner: 'bob', market, token: 1, side: Side.BUY, price: 62, size: 50 * TOKEN });
    });
    const [trade] = await db.sql`SELECT * FROM trades`;
    expect(trade).toMatchObject({
      trade_id: '3-3',
      taker_address: 'bob',
      asset_id: NO,
      side: 'BUY',
      size: '50000000',
      notional: '30000000',
      price: '0.600000',
      status: 'CONFIRMED',
    });
    expect(
      await db.sql`SELECT maker_order_id, kind, maker_price::text, taker_price_ticks, maker_side FROM trade_fills`,
    ).toEqual([
      {
        maker_order_id: 'alice-buy-yes',
        kind: 'mint',
        maker_price: '0.4000',
        taker_price_ticks: 60,
        maker_side: 'BUY',
      },
    ]);
    expect(await db.sql`SELECT order_id, status, matched FROM orders ORDER BY order_id`).toEqual([
      { order_id: 'alice-buy-yes', status: 'live', matched: '50000000' },
      { order_id: 'bob-buy-no', status: 'matched', matched: '50000000' },
    ]);
    expect(await db.sql`SELECT locked::text, minted::text FROM market_collateral`).toEqual([
      { locked: '50000000', minted: '50000000' },
    ]);
    await compareWithRiskBook(shard, ['alice', 'bob'], [market]);
  });

  it('a transfer and an FAK remainder: the buyer pays the resting price, the rest is unmatched', async () => {
    await run(2000, (ops) => {
      ops.place({
        id: 'carol-sell-yes',
        owner: 'carol',
        market,
        token: 0,
        side: Side.SELL,
        price: 45,
        size: 30 * TOKEN,
      });
      ops.place({
        id: 'dave-fak',
        owner: 'dave',
        market,
        token: 0,
        side: Side.BUY,
        price: 50,
        size: 40 * TOKEN,
        type: OrderType.FAK,
      });
    });
    expect(
      await db.sql`SELECT order_id, status, matched, close_reason FROM orders WHERE owner IN ('carol', 'dave') ORDER BY order_id`,
    ).toEqual([
      { order_id: 'carol-sell-yes', status: 'matched', matched: '30000000', close_reason: null },
      { order_id: 'dave-fak', status: 'unmatched', matched: '30000000', close_reason: 'unfilled' },
    ]);
    expect(
      await db.sql`SELECT cause, delta::text FROM ledger_entries WHERE address = 'dave' AND trade_id IS NOT NULL ORDER BY asset = 'collateral' DESC`,
    ).toEqual([
      { cause: 'trade', delta: '-13500000' }, // collateral: 30 × 0.45
      { cause: 'trade', delta: '30000000' },
    ]);
    await compareWithRiskBook(shard, ['carol', 'dave'], [market]);
  });

  it('a merge: both sellers are paid out of the locked collateral, and positions realize at average cost', async () => {
    await run(3000, (ops) => {
      ops.place({
        id: 'alice-sell-yes',
        owner: 'alice',
        market,
        token: 0,
        side: Side.SELL,
        price: 70,
        size: 20 * TOKEN,
      });
      ops.place({ id: 'bob-sell-no', owner: 'bob', market, token: 1, side: Side.SELL, price: 25, size: 20 * TOKEN });
    });
    expect(
      await db.sql`SELECT kind FROM trade_fills WHERE trade_id = (SELECT trade_id FROM trades WHERE taker_order_id = 'bob-sell-no')`,
    ).toEqual([{ kind: 'merge' }]);
    expect(await db.sql`SELECT locked::text, merged::text FROM market_collateral`).toEqual([
      { locked: '30000000', merged: '20000000' },
    ]);
    const positions =
      await db.sql`SELECT address, asset, size, cost_basis, realized_pnl, closed_cost, total_bought FROM positions WHERE address IN ('alice', 'bob') ORDER BY address`;
    expect(positions).toEqual([
      // bought 50 at 0.40, sold 20 at 0.70: 14 − 8 realized
      {
        address: 'alice',
        asset: YES,
        size: '30000000',
        cost_basis: '12000000',
        realized_pnl: '6000000',
        closed_cost: '8000000',
        total_bought: '50000000',
      },
      // bought 50 at 0.60, merged 20 at 0.30: 6 − 12 realized
      {
        address: 'bob',
        asset: NO,
        size: '30000000',
        cost_basis: '18000000',
        realized_pnl: '-6000000',
        closed_cost: '12000000',
        total_bought: '50000000',
      },
    ]);
    await compareWithRiskBook(shard, ['alice', 'bob', 'carol', 'dave'], [market]);
  });

  it('cancels and expiries close orders with their reason', async () => {
    await run(4000, (ops) => ops.cancel('alice-buy-yes'));
    await run(5000, (ops) =>
      ops.place({
        id: 'dave-gtd',
        owner: 'dave',
        market,
        token: 1,
        side: Side.BUY,
        price: 30,
        size: 10 * TOKEN,
        type: OrderType.GTD,
        expiresAt: 5500,
      }),
    );
    expect(await db.sql`SELECT status, expires_at FROM orders WHERE order_id = 'dave-gtd'`).toEqual([
      { status: 'live', expires_at: new Date(5500) },
    ]);
    await run(6000, (ops) => ops.expire());
    expect(
      await db.sql`SELECT order_id, status, close_reason, matched FROM orders WHERE order_id IN ('alice-buy-yes', 'dave-gtd') ORDER BY order_id`,
    ).toEqual([
      { order_id: 'alice-buy-yes', status: 'cancelled', close_reason: 'user', matched: '50000000' },
      { order_id: 'dave-gtd', status: 'expired', close_reason: 'expired', matched: '0' },
    ]);
    expect(await ledger.lastSeq()).toBe(jobs.at(-1)!.toSeq);
    expect(await checkLedger(db.sql)).toEqual([]);
  });

  it('records the midpoint after each batch that moved it, and only then', async () => {
    const mids = () =>
      db.sql<
        { bid_ticks: number; ask_ticks: number }[]
      >`SELECT bid_ticks, ask_ticks FROM midpoint_changes ORDER BY seq`;
    expect(await mids()).toEqual([]); // so far no batch ended with both sides of the book
    await run(6100, (ops) => {
      ops.place({ id: 'carol-ask', owner: 'carol', market, token: 0, side: Side.SELL, price: 80, size: 10 * TOKEN });
      ops.place({ id: 'dave-bid', owner: 'dave', market, token: 0, side: Side.BUY, price: 20, size: 10 * TOKEN });
    });
    await run(6200, (ops) =>
      ops.place({ id: 'dave-no-bid', owner: 'dave', market, token: 1, side: Side.BUY, price: 10, size: 10 * TOKEN }),
    ); // behind: YES ask 0.90
    await run(6300, (ops) =>
      ops.place({ id: 'dave-bid-2', owner: 'dave', market, token: 0, side: Side.BUY, price: 30, size: 10 * TOKEN }),
    );
    expect(await mids()).toEqual([
      { bid_ticks: 20, ask_ticks: 80 },
      { bid_ticks: 30, ask_ticks: 80 },
    ]);
  });
});

describe("a position's running totals", () => {
  it('grow past 2^63 without stopping the ledger', async () => {
    const big = testMarket('totals');
    await insertMarket(db.sql, big, shard);
    await deposit(db.sql, 'erin', big.tokens[0], 10 * TOKEN, shard);
    await deposit(db.sql, 'frank', COLLATERAL, 10 * TOKEN, shard);
    // ≈ 9,223 round trips of the largest order make these totals; set them just below 2^63.
    const nearMax = 2n ** 63n - 1n - 1000n;
    await db.sql`INSERT INTO positions (address, asset, market, token, total_bought, closed_cost, realized_pnl)
                 VALUES ('frank', ${big.tokens[0]}, ${big.conditionId}, 0, ${nearMax.toString()}, ${nearMax.toString()}, ${nearMax.toString()})`;
    await run(6400, (ops) => {
      ops.place({ id: 'erin-ask', owner: 'erin', market: big, token: 0, side: Side.SELL, price: 50, size: 10 * TOKEN });
      ops.place({
        id: 'frank-bid',
        owner: 'frank',
        market: big,
        token: 0,
        side: Side.BUY,
        price: 50,
        size: 10 * TOKEN,
      });
    });
    expect(
      await db.sql`SELECT size::text, total_bought::text FROM positions WHERE address = 'frank' AND asset = ${big.tokens[0]}`,
    ).toEqual([{ size: String(10 * TOKEN), total_bought: String(nearMax + BigInt(10 * TOKEN)) }]);
    expect(await checkLedger(db.sql)).toEqual([]);
  });
});

describe('sequencing', () => {
  async function counts(): Promise<unknown> {
    const [row] =
      await db.sql`SELECT (SELECT count(*) FROM orders) o, (SELECT count(*) FROM trades) t, (SELECT count(*) FROM ledger_entries) e,
                                      (SELECT sum(amount)::text FROM balances) b, (SELECT last_seq FROM shard_offsets WHERE shard = 3) s`;
    return row;
  }

  it('a replayed batch changes nothing', async () => {
    const before = await counts();
    for (const job of jobs) expect(await ledger.apply(job)).toMatchObject({ kind: 'duplicate' });
    expect(await counts()).toEqual(before);
  });

  it('a batch that would leave a gap is refused and changes nothing', async () => {
    const before = await counts();
    const job = shard.batch(7000, (ops) =>
      ops.place({ id: 'skipped', owner: 'carol', market, token: 0, side: Side.SELL, price: 90, size: TOKEN }),
    )!;
    const later = shard.batch(7001, (ops) =>
      ops.place({ id: 'after-gap', owner: 'carol', market, token: 0, side: Side.SELL, price: 91, size: TOKEN }),
    )!;
    expect(await ledger.apply(later)).toEqual({
      kind: 'gap',
      lastSeq: job.fromSeq - 1,
      expected: job.fromSeq,
      got: later.fromSeq,
    });
    expect(await counts()).toEqual(before);
    // A batch overlapping the ledger's offset applies only its new events.
    const overlapping: ShardJob = {
      ...later,
      fromSeq: jobs.at(-1)!.fromSeq,
      events: [...jobs.at(-1)!.events, ...job.events, ...later.events],
    };
    expect(await ledger.apply(overlapping)).toMatchObject({
      kind: 'applied',
      events: job.events.length + later.events.length,
    });
    expect(
      await db.sql`SELECT order_id FROM orders WHERE order_id IN ('skipped', 'after-gap') ORDER BY order_id`,
    ).toHaveLength(2);
  });

  it('a batch reusing sequence numbers for other events is refused loudly', async () => {
    const impostor: ShardJob = {
      ...jobs[0]!,
      events: jobs[0]!.events.map((e) => (e.type === 'accepted' ? { ...e, orderId: `${e.orderId}-again` } : e)),
    };
    await expect(ledger.apply(impostor)).rejects.toBeInstanceOf(SequenceReuseError);
  });
});

describe('random order flow over two markets', () => {
  it('keeps every balance equal to the RiskBook fed the same events, and the ledger sound', async () => {
    const first = testMarket('flow-first');
    const other = testMarket('flow-other', '0.001');
    const flow = new EngineShard(5);
    const flowLedger = new ShardLedger(db.sql, 5, new MarketDirectory(db.sql));
    await insertMarket(db.sql, first, flow);
    await insertMarket(db.sql, other, flow);
    const traders = ['t0', 't1', 't2', 't3'];
    for (const who of traders) {
      await deposit(db.sql, who, COLLATERAL, 10_000 * TOKEN, flow);
      await deposit(db.sql, who, other.tokens[0], 500 * TOKEN, flow);
    }
    let seed = 42;
    const random = (n: number): number => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const live: string[] = [];
    for (let batch = 0; batch < 60; batch++) {
      const job = flow.batch(10_000 + batch * 100, (ops) => {
        for (let k = 0; k < 8; k++) {
          const m = random(2) === 0 ? first : other;
          const who = traders[random(4)]!;
          const token = random(2) as 0 | 1;
          const side = random(2) === 0 ? Side.BUY : Side.SELL;
          const price = Math.round(m.ticksPerUnit * (0.35 + random(30) / 100));
          const size = (1 + random(40)) * 10_000 * 10;
          const asset = side === Side.BUY ? COLLATERAL : m.tokens[token];
          const need = side === Side.BUY ? (size * price) / m.ticksPerUnit : size;
          if (flow.risk.balance(who, asset).available < need) continue;
          const id = `r${batch}-${k}`;
          const type = random(4) === 0 ? OrderType.FAK : OrderType.GTC;
          const result = ops.place({ id, owner: who, market: m, token, side, price, size, type });
          if (result.ok && result.status === 'live') live.push(id);
        }
        if (live.length > 0 && random(3) === 0) {
          const victim = live.splice(random(live.length), 1)[0]!;
          if (flow.isOpen(victim)) ops.cancel(victim);
        }
      });
      if (job !== null) expect(await flowLedger.apply(job)).toMatchObject({ kind: 'applied' });
    }
    const [{ trades }] = (await db.sql`SELECT count(*)::int AS trades FROM trades WHERE shard = 5`) as unknown as [
      { trades: number },
    ];
    expect(trades).toBeGreaterThan(20);
    expect(await db.sql`SELECT DISTINCT kind FROM trade_fills ORDER BY kind`).toEqual([
      { kind: 'merge' },
      { kind: 'mint' },
      { kind: 'transfer' },
    ]);
    await compareWithRiskBook(flow, traders, [first, other]);
    expect(await checkLedger(db.sql)).toEqual([]);
  });
});

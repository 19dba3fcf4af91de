// A trade with more fills than a smallint counts (migration 006): a taker sweeping 33,000
// resting orders at once goes into the ledger whole, its fills numbered 0 … 32,999; as a smallint,
// the 32,769th fill would fail the batch for good and stop the shard's ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import { checkLedger } from '@pmx/ledger';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { EngineShard } from '../testing/engine-shard.ts';
import { deposit, insertMarket, testMarket, TOKEN } from '../testing/ledger-fixtures.ts';
import { MarketDirectory } from './market-directory.ts';
import { ShardLedger } from './shard-ledger.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('a trade with very many fills', () => {
  it('takes a trade of more fills than a smallint counts (a taker sweeping 33,000 resting orders)', async () => {
    const deep = testMarket('deep');
    const sweep = new EngineShard(6);
    const sweepLedger = new ShardLedger(db.sql, 6, new MarketDirectory(db.sql));
    await insertMarket(db.sql, deep, sweep);
    await deposit(db.sql, 'many', COLLATERAL, 1000 * TOKEN, sweep);
    await deposit(db.sql, 'sweeper', COLLATERAL, 1000 * TOKEN, sweep);
    const lot = 10_000;
    const orders = 33_000;
    const resting = sweep.batch(50_000, (ops) => {
      for (let i = 0; i < orders; i++)
        ops.place({ id: `deep-${i}`, owner: 'many', market: deep, token: 0, side: Side.BUY, price: 1, size: lot });
    });
    expect(await sweepLedger.apply(resting!)).toMatchObject({ kind: 'applied' });
    // Buying the other token at 0.99 against bids at 0.01: one mint fill per resting order.
    const taken = sweep.batch(50_001, (ops) => {
      ops.place({
        id: 'deep-sweep',
        owner: 'sweeper',
        market: deep,
        token: 1,
        side: Side.BUY,
        price: 99,
        size: orders * lot,
        type: OrderType.FAK,
      });
    });
    expect(await sweepLedger.apply(taken!)).toMatchObject({ kind: 'applied' });
    const [{ fills, last }] =
      (await db.sql`SELECT count(*)::int AS fills, max(idx) AS last FROM trade_fills WHERE maker_order_id LIKE 'deep-%'`) as unknown as [
        { fills: number; last: number },
      ];
    expect({ fills, last }).toEqual({ fills: orders, last: orders - 1 });
    for (const who of ['many', 'sweeper']) {
      const [row] = await db.sql<
        { amount: string }[]
      >`SELECT amount::text FROM balances WHERE address = ${who} AND asset = ${COLLATERAL}`;
      expect(Number(row!.amount)).toBe(sweep.risk.balance(who, COLLATERAL).total);
    }
    expect(await checkLedger(db.sql)).toEqual([]);
  }, 60_000);
});

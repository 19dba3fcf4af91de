// checkLedger passes on a ledger built from real engine events, and catches each kind of damage.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { MarketDirectory } from './ledger/market-directory.ts';
import { ShardLedger } from './ledger/shard-ledger.ts';
import { EngineShard } from './testing/engine-shard.ts';
import { deposit, insertMarket, testMarket, TOKEN } from './testing/ledger-fixtures.ts';
import { checkLedger } from '@pmx/ledger';

let db: TestDatabase;
const market = testMarket('check');
const undo: (() => Promise<unknown>)[] = [];
const BUILDER = `0x${'b1'.repeat(32)}`;

/** Runs a corrupting statement and remembers how to put things back. */
async function corrupt(damage: () => Promise<unknown>, repair: () => Promise<unknown>): Promise<string[]> {
  await damage();
  undo.push(repair);
  return checkLedger(db.sql);
}

beforeAll(async () => {
  db = await createTestDatabase();
  const shard = new EngineShard(0);
  const ledger = new ShardLedger(db.sql, 0, new MarketDirectory(db.sql));
  await insertMarket(db.sql, market, shard);
  await deposit(db.sql, 'alice', COLLATERAL, 100 * TOKEN, shard);
  await deposit(db.sql, 'bob', COLLATERAL, 100 * TOKEN, shard);
  await deposit(db.sql, 'bob', market.tokens[0], 10 * TOKEN, shard);
  const job = shard.batch(1, (ops) => {
    ops.place({ id: 'a', owner: 'alice', market, token: 0, side: Side.BUY, price: 60, size: 20 * TOKEN });
    ops.place({
      id: 'b',
      owner: 'bob',
      market,
      token: 1,
      side: Side.BUY,
      price: 45,
      size: 10 * TOKEN,
      builder: BUILDER,
    }); // mint 10
    ops.place({ id: 'c', owner: 'bob', market, token: 0, side: Side.SELL, price: 55, size: 5 * TOKEN }); // transfer 5
  })!;
  await ledger.apply(job);
  await deposit(db.sql, 'alice', COLLATERAL, -10 * TOKEN, shard);
});

afterEach(async () => {
  while (undo.length > 0) await undo.pop()!();
  expect(await checkLedger(db.sql)).toEqual([]);
});

afterAll(async () => {
  await db?.drop();
});

describe('checkLedger', () => {
  it('finds nothing wrong with a ledger built from engine events and transfers', async () => {
    expect(await db.sql`SELECT count(*)::int AS n FROM trades`).toEqual([{ n: 2 }]);
    expect(await checkLedger(db.sql)).toEqual([]);
  });

  it("catches a builder's trade missing from builder_trades, and a stray one", async () => {
    const [row] = await db.sql<
      { trade_id: string; match_time: Date; shard: number; seq: string }[]
    >`SELECT trade_id, match_time, shard, seq FROM builder_trades WHERE builder = ${BUILDER}`;
    expect(row).toBeDefined();
    expect(
      await corrupt(
        () => db.sql`DELETE FROM builder_trades WHERE builder = ${BUILDER}`,
        () =>
          db.sql`INSERT INTO builder_trades (builder, trade_id, match_time, shard, seq) VALUES (${BUILDER}, ${row!.trade_id}, ${row!.match_time}, ${row!.shard}, ${row!.seq})`,
      ),
    ).toEqual([`builder_trades lacks a row for builder ${BUILDER} and trade ${row!.trade_id}`]);
    await undo.pop()!();
    const other = `0x${'c2'.repeat(32)}`;
    expect(
      await corrupt(
        () =>
          db.sql`INSERT INTO builder_trades (builder, trade_id, match_time, shard, seq) VALUES (${other}, ${row!.trade_id}, ${row!.match_time}, ${row!.shard}, ${row!.seq})`,
        () => db.sql`DELETE FROM builder_trades WHERE builder = ${other}`,
      ),
    ).toEqual([`builder_trades has a stray row for builder ${other} and trade ${row!.trade_id}`]);
  });

  it('catches a balance that no longer equals its ledger entries', async () => {
    const problems = await corrupt(
      () => db.sql`UPDATE balances SET amount = amount + 1 WHERE address = 'alice' AND asset = 'collateral'`,
      () => db.sql`UPDATE balances SET amount = amount - 1 WHERE address = 'alice' AND asset = 'collateral'`,
    );
    expect(problems).toContain(`balance of alice in collateral is 81000001 but its ledger entries sum to 81000000`);
    expect(problems.some((p) => p.startsWith('collateral held'))).toBe(true);
  });

  it('catches money created with a matching entry: conservation breaks', async () => {
    const problems = await corrupt(
      async () => {
        await db.sql`INSERT INTO ledger_entries (address, asset, delta, cause) VALUES ('mallory', 'collateral', 5, 'trade')`;
        await db.sql`INSERT INTO balances (address, asset, amount) VALUES ('mallory', 'collateral', 5)`;
      },
      async () => {
        await db.sql`DELETE FROM ledger_entries WHERE address = 'mallory'`;
        await db.sql`DELETE FROM balances WHERE address = 'mallory'`;
      },
    );
    expect(problems).toEqual([
      'collateral held 180000005 + locked 10000000 = 190000005, but deposits − withdrawals = 190000000',
    ]);
  });

  it('catches locked collateral that does not match the pairs minted, nor the tokens in circulation', async () => {
    const locked = await corrupt(
      () => db.sql`UPDATE market_collateral SET locked = locked - 1`,
      () => db.sql`UPDATE market_collateral SET locked = locked + 1`,
    );
    expect(locked.filter((p) => p.startsWith('market '))).toHaveLength(1);
    expect(locked.some((p) => p.startsWith('collateral held'))).toBe(true);
    const minted = await corrupt(
      () => db.sql`UPDATE market_collateral SET locked = locked - 1, minted = minted - 1`,
      () => db.sql`UPDATE market_collateral SET locked = locked + 1, minted = minted + 1`,
    );
    expect(minted.filter((p) => p.startsWith('token '))).toHaveLength(2);
    expect(minted.some((p) => p.startsWith('collateral held'))).toBe(true);
  });

  it('catches a closed market that still has live orders, and flags out of step with the state', async () => {
    const closed = await corrupt(
      () => db.sql`UPDATE markets SET state = 'closed', closed = true, accepting_orders = false`,
      () => db.sql`UPDATE markets SET state = 'open', closed = false, accepting_orders = true`,
    );
    expect(closed).toEqual([`market ${market.conditionId} is closed but has 1 live orders`]);
    const paused = await corrupt(
      () => db.sql`UPDATE markets SET state = 'paused'`,
      () => db.sql`UPDATE markets SET state = 'open'`,
    );
    expect(paused).toEqual([
      `market ${market.conditionId} is paused but its closed / accepting_orders flags say otherwise`,
    ]);
  });

  it('catches a position out of step with its balance, and an order out of step with its trades', async () => {
    const problems = await corrupt(
      async () => {
        await db.sql`UPDATE positions SET size = size + 1 WHERE address = 'alice'`;
        await db.sql`UPDATE orders SET matched = matched - 10000 WHERE order_id = 'a'`;
      },
      async () => {
        await db.sql`UPDATE positions SET size = size - 1 WHERE address = 'alice'`;
        await db.sql`UPDATE orders SET matched = matched + 10000 WHERE order_id = 'a'`;
      },
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^position of alice in \d+ is 15000001 but the balance is 15000000$/);
    expect(problems[1]).toBe('order a (live, size 20000000) has matched 14990000 but its trades sum to 15000000');
  });

  it('catches live orders their owner can no longer cover', async () => {
    // Alice's bid has 5 of 20 left at 0.60: it needs 3 USDC. A withdrawal, recorded as any other,
    // leaves her 2.
    const [row] = await db.sql<
      { amount: string }[]
    >`SELECT amount::text FROM balances WHERE address = 'alice' AND asset = 'collateral'`;
    const excess = Number(row!.amount) - 2 * TOKEN;
    const problems = await corrupt(
      () => deposit(db.sql, 'alice', COLLATERAL, -excess),
      () => deposit(db.sql, 'alice', COLLATERAL, excess),
    );
    expect(problems.filter((p) => p.startsWith('open orders'))).toEqual([
      'open orders of alice need 3000000 of collateral but the balance is 2000000',
    ]);
  });

  it('catches an operator transfer that never reached the ledger', async () => {
    const problems = await corrupt(
      async () => {
        await db.sql`ALTER TABLE operator_transfers DISABLE TRIGGER operator_transfers_ledger`;
        await db.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES ('carol', 'collateral', 7)`;
        await db.sql`ALTER TABLE operator_transfers ENABLE TRIGGER operator_transfers_ledger`;
      },
      () => db.sql`DELETE FROM operator_transfers WHERE address = 'carol'`,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^operator transfer \d+ has no ledger entry$/),
      'collateral held 180000000 + locked 10000000 = 190000000, but deposits − withdrawals = 190000007',
    ]);
  });
});

// GET /data/trades and /builder/trades over a ledger built from real engine events: every field
// of the contract's Trade, the caller's side (TAKER/MAKER), the filters and the paging.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { MarketDirectory } from './ledger/market-directory.ts';
import { ShardLedger } from './ledger/shard-ledger.ts';
import { transactionHash, type ShardEvent } from '@pmx/events';
import { EngineShard } from './testing/engine-shard.ts';
import { deposit, insertMarket, testMarket, TOKEN } from './testing/ledger-fixtures.ts';
import { builderTrades, buildersOf, listTrades } from '@pmx/ledger';

const address = (start: string): string => `0x${start.padEnd(40, '0')}`;
const ALICE = address('a11ce');
const BOB = address('b0b');
const CAROL = address('ca201');
const ERIN = address('e214');
const KEYS = {
  alice: '11111111-1111-4111-8111-111111111111',
  bob: '22222222-2222-4222-8222-222222222222',
  bobSecond: '33333333-3333-4333-8333-333333333333',
  erin: '55555555-5555-4555-8555-555555555555',
};
const T0 = 1_700_000_000_000;
const BUILDER = `0x${'b1'.repeat(32)}`;

let db: TestDatabase;
let shard: EngineShard;
let ledger: ShardLedger;
const market = testMarket('trades');
const second = testMarket('trades-2');
const ids: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  shard = new EngineShard(0);
  ledger = new ShardLedger(db.sql, 0, new MarketDirectory(db.sql));
  await insertMarket(db.sql, market, shard);
  await insertMarket(db.sql, second, shard);
  for (const who of [ALICE, BOB, CAROL]) {
    await deposit(db.sql, who, COLLATERAL, 100 * TOKEN, shard);
    await deposit(db.sql, who, market.tokens[0], 100 * TOKEN, shard);
  }
  for (const [name, address] of [
    ['alice', ALICE],
    ['bob', BOB],
    ['erin', ERIN],
  ] as const) {
    await db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${KEYS[name]}, ${address}, 0, 's', 'p')`;
  }
  // Carol trades through a proxy wallet that Erin signs for: her orders' owner is Erin's key.
  await db.sql`INSERT INTO proxy_wallets (proxy, signer, signature_type) VALUES (${CAROL}, ${ERIN}, 1)`;
  const batches = [
    shard.batch(T0 + 1000, (ops) => {
      ops.place({ id: 'alice-sell', owner: ALICE, market, token: 0, side: Side.SELL, price: 55, size: 10 * TOKEN });
      ops.place({
        id: 'carol-sell',
        owner: CAROL,
        market,
        token: 0,
        side: Side.SELL,
        price: 57,
        size: 10 * TOKEN,
        builder: BUILDER,
      });
      ops.place({
        id: 'bob-buy',
        owner: BOB,
        market,
        token: 0,
        side: Side.BUY,
        price: 60,
        size: 15 * TOKEN,
        ownerKey: KEYS.bobSecond,
        builder: BUILDER,
      });
    }),
    shard.batch(T0 + 2000, (ops) =>
      ops.place({ id: 'alice-buy', owner: ALICE, market, token: 0, side: Side.BUY, price: 57, size: 5 * TOKEN }),
    ),
    shard.batch(T0 + 3000, (ops) => {
      ops.place({ id: 'bob-buy-2', owner: BOB, market: second, token: 0, side: Side.BUY, price: 30, size: 2 * TOKEN });
      ops.place({
        id: 'carol-buy-2',
        owner: CAROL,
        market: second,
        token: 1,
        side: Side.BUY,
        price: 70,
        size: 2 * TOKEN,
      });
    }),
  ];
  for (const job of batches) {
    await ledger.apply(job!);
    ids.push(job!.events.find((e): e is Extract<ShardEvent, { type: 'trade' }> => e.type === 'trade')!.tradeId);
  }
});

afterAll(async () => {
  await db?.drop();
});

describe('listTrades', () => {
  it("returns the caller's trades newest first, every contract field filled, with its side of each", async () => {
    const page = await listTrades(db.sql, { address: ALICE });
    expect(page).toMatchObject({ limit: 100, count: 2, nextOffset: null });
    expect(page.data.map((t) => [t.id, t.type])).toEqual([
      [ids[1], 'TAKER'],
      [ids[0], 'MAKER'],
    ]);
    const [, sweep] = page.data;
    expect(sweep).toEqual({
      id: ids[0],
      taker_order_id: 'bob-buy',
      market: market.conditionId,
      asset_id: market.tokens[0],
      side: 'BUY',
      size: '15',
      fee_rate_bps: '0',
      price: '0.556667', // (10 × 0.55 + 5 × 0.57) / 15
      status: 'CONFIRMED',
      match_time: new Date(T0 + 1000).toISOString(),
      last_update: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      outcome: 'Yes',
      maker_address: BOB,
      owner: KEYS.bobSecond, // the key the order was placed with, not the address's first
      transaction_hash: transactionHash(ids[0]!),
      bucket_index: 0,
      maker_orders: [
        {
          order_id: 'alice-sell',
          maker_address: ALICE,
          owner: KEYS.alice,
          matched_amount: '10',
          fee_rate_bps: '0',
          price: '0.55',
          asset_id: market.tokens[0],
          outcome: 'Yes',
          side: 'SELL',
        },
        {
          order_id: 'carol-sell',
          maker_address: CAROL,
          owner: KEYS.erin,
          matched_amount: '5',
          fee_rate_bps: '0',
          price: '0.57',
          asset_id: market.tokens[0],
          outcome: 'Yes',
          side: 'SELL',
        },
      ],
      type: 'MAKER',
      trader_side: 'MAKER',
    });
  });

  it("reports a mint in each side's own token and outcome", async () => {
    const [mint] = (await listTrades(db.sql, { address: BOB, market: second.conditionId })).data;
    expect(mint).toMatchObject({
      taker_order_id: 'carol-buy-2',
      asset_id: second.tokens[1],
      outcome: 'No',
      price: '0.7',
      type: 'MAKER',
      owner: KEYS.erin,
    });
    expect(mint!.maker_orders).toEqual([
      expect.objectContaining({
        order_id: 'bob-buy-2',
        asset_id: second.tokens[0],
        outcome: 'Yes',
        side: 'BUY',
        price: '0.3',
      }),
    ]);
  });

  it('filters by id, taker, maker, market and time, and pages with an offset', async () => {
    const seconds = (ms: number) => ms / 1000;
    const of = async (query: Parameters<typeof listTrades>[1]) =>
      (await listTrades(db.sql, query)).data.map((t) => t.id);
    expect(await of({ address: CAROL })).toEqual([ids[2], ids[1], ids[0]]);
    expect(await of({ address: CAROL, id: ids[1] })).toEqual([ids[1]]);
    expect(await of({ address: CAROL, taker: BOB })).toEqual([ids[0]]);
    expect(await of({ address: CAROL, maker: ALICE })).toEqual([ids[0]]);
    expect(await of({ address: CAROL, market: second.conditionId })).toEqual([ids[2]]);
    expect(await of({ address: CAROL, market: second.conditionId.toUpperCase().replace('0X', '0x') })).toEqual([
      ids[2],
    ]);
    // The official client's filters: the trade's own maker_address and asset_id fields.
    const all = (await listTrades(db.sql, { address: CAROL })).data;
    for (const assetId of new Set(all.map((t) => t.asset_id))) {
      const expected = all.filter((t) => t.asset_id === assetId).map((t) => t.id);
      expect(expected.length).toBeLessThan(all.length);
      expect(await of({ address: CAROL, assetId })).toEqual(expected);
    }
    for (const makerAddress of new Set(all.map((t) => t.maker_address))) {
      const expected = all.filter((t) => t.maker_address === makerAddress).map((t) => t.id);
      expect(expected.length).toBeLessThan(all.length);
      expect(await of({ address: CAROL, makerAddress: makerAddress.toUpperCase().replace('0X', '0x') })).toEqual(
        expected,
      );
    }
    expect(await of({ address: CAROL, after: seconds(T0 + 1000) })).toEqual([ids[2], ids[1]]);
    expect(await of({ address: CAROL, before: seconds(T0 + 3000), after: seconds(T0 + 1000) })).toEqual([ids[1]]);
    expect(await of({ address: `0x${BOB.slice(2).toUpperCase()}` })).toEqual([ids[2], ids[0]]);
    expect(await of({ address: '0x0000000000000000000000000000000000000009' })).toEqual([]);
    const first = await listTrades(db.sql, { address: CAROL, limit: 2 });
    expect(first).toMatchObject({ count: 2, nextOffset: 2 });
    const last = await listTrades(db.sql, { address: CAROL, limit: 2, offset: first.nextOffset! });
    expect(last).toMatchObject({ count: 1, nextOffset: null });
    expect(last.data[0]!.id).toBe(ids[0]);
  });
});

describe('builderTrades', () => {
  it("lists the trades of orders that carried the builder, from the builder's side", async () => {
    const builder = BUILDER;
    expect(await builderTrades(db.sql, { builder: `0x${'c2'.repeat(32)}` })).toEqual([]);
    expect(await db.sql`SELECT count(*)::int AS n FROM orders WHERE builder IS NULL`).toEqual([{ n: 4 }]); // zero builder = none
    const trades = await builderTrades(db.sql, { builder });
    expect(trades.map((t) => [t.id, t.type])).toEqual([
      [ids[1], 'MAKER'],
      [ids[0], 'TAKER'],
    ]);
    expect((await builderTrades(db.sql, { builder, makerAddress: ALICE })).map((t) => t.id)).toEqual([ids[1]]);
    expect((await builderTrades(db.sql, { builder, assetId: market.tokens[1] })).map((t) => t.id)).toEqual([]);
  });

  it("finds an account's own builder codes: those its orders carried under any of its API keys", async () => {
    // Bob placed bob-buy with his second key, carrying the builder; Alice's orders carried none.
    await db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${KEYS.bobSecond}, ${BOB}, 1, 's', 'p')`;
    expect(await buildersOf(db.sql, `0x${BOB.slice(2).toUpperCase()}`)).toEqual([BUILDER]);
    expect(await buildersOf(db.sql, ALICE)).toEqual([]);
  });
});

describe('listTrades over many trades', () => {
  it("pages a market maker's trades exactly: taker and maker ones interleaved, a trade with several of its fills once", async () => {
    const DAVE = address('da7e');
    const FRANK = address('f2a4c');
    const many = testMarket('trades-many');
    await insertMarket(db.sql, many, shard);
    for (const who of [DAVE, FRANK]) {
      await deposit(db.sql, who, COLLATERAL, 1000 * TOKEN, shard);
      await deposit(db.sql, who, many.tokens[0], 1000 * TOKEN, shard);
    }
    // Rounds of: Dave rests three sells, Frank buys through all three (one trade, three of Dave's
    // fills); then Frank rests a sell that Dave takes (Dave the taker). Several trades share a time.
    for (let round = 0; round < 6; round++) {
      const job = shard.batch(T0 + 10_000 + Math.floor(round / 2) * 1000, (ops) => {
        for (const price of [50, 51, 52])
          ops.place({
            id: `dave-sell-${round}-${price}`,
            owner: DAVE,
            market: many,
            token: 0,
            side: Side.SELL,
            price,
            size: TOKEN,
          });
        ops.place({
          id: `frank-buy-${round}`,
          owner: FRANK,
          market: many,
          token: 0,
          side: Side.BUY,
          price: 52,
          size: 3 * TOKEN,
        });
        ops.place({
          id: `frank-sell-${round}`,
          owner: FRANK,
          market: many,
          token: 0,
          side: Side.SELL,
          price: 53,
          size: TOKEN,
        });
        ops.place({
          id: `dave-buy-${round}`,
          owner: DAVE,
          market: many,
          token: 0,
          side: Side.BUY,
          price: 53,
          size: TOKEN,
        });
      });
      await ledger.apply(job!);
    }
    const expected = (
      await db.sql<{ trade_id: string }[]>`
      SELECT trade_id FROM trades t
       WHERE t.taker_address = ${DAVE} OR EXISTS (SELECT 1 FROM trade_fills f WHERE f.trade_id = t.trade_id AND f.maker_address = ${DAVE})
       ORDER BY match_time DESC, shard DESC, seq DESC`
    ).map((row) => row.trade_id);
    expect(expected).toHaveLength(12);
    for (const limit of [1, 2, 5, 12, 20]) {
      const pages: string[] = [];
      for (let offset: number | null = 0; offset !== null;) {
        const page = await listTrades(db.sql, { address: DAVE, limit, offset });
        pages.push(...page.data.map((t) => t.id));
        offset = page.nextOffset;
      }
      expect(pages).toEqual(expected);
    }
    const all = (await listTrades(db.sql, { address: DAVE, limit: 100 })).data;
    expect(all.map((t) => t.trader_side)).toEqual(
      all.map((t) => (t.taker_order_id.startsWith('dave') ? 'TAKER' : 'MAKER')),
    );
    expect(all.filter((t) => t.trader_side === 'MAKER').every((t) => t.maker_orders.length === 3)).toBe(true);
  });
});

describe('builderTrades over many trades', () => {
  it("pages a builder's trades exactly: as taker, as maker, both in one trade, several of its fills once", async () => {
    const GINA = address('61a');
    const HANK = address('4a2c');
    const B2 = `0x${'b2'.repeat(32)}`;
    const B3 = `0x${'b3'.repeat(32)}`;
    const many = testMarket('builder-many');
    await insertMarket(db.sql, many, shard);
    for (const who of [GINA, HANK]) {
      await deposit(db.sql, who, COLLATERAL, 1000 * TOKEN, shard);
      await deposit(db.sql, who, many.tokens[0], 1000 * TOKEN, shard);
    }
    // Rounds of: Gina rests three sells through B2 that Hank (no builder) buys in one trade; Hank
    // rests a sell through B2 or B3 that Gina takes through B2 (B2 on both sides of one trade, or
    // the taker's only); Hank rests a B3 sell that Gina takes without a builder (B3 only).
    for (let round = 0; round < 6; round++) {
      const job = shard.batch(T0 + 20_000 + Math.floor(round / 2) * 1000, (ops) => {
        for (const price of [50, 51, 52])
          ops.place({
            id: `gina-sell-${round}-${price}`,
            owner: GINA,
            market: many,
            token: 0,
            side: Side.SELL,
            price,
            size: TOKEN,
            builder: B2,
          });
        ops.place({
          id: `hank-buy-${round}`,
          owner: HANK,
          market: many,
          token: 0,
          side: Side.BUY,
          price: 52,
          size: 3 * TOKEN,
        });
        ops.place({
          id: `hank-sell-${round}`,
          owner: HANK,
          market: many,
          token: 0,
          side: Side.SELL,
          price: 53,
          size: TOKEN,
          builder: round % 2 === 0 ? B2 : B3,
        });
        ops.place({
          id: `gina-buy-${round}`,
          owner: GINA,
          market: many,
          token: 0,
          side: Side.BUY,
          price: 53,
          size: TOKEN,
          builder: B2,
        });
        ops.place({
          id: `hank-sell-b3-${round}`,
          owner: HANK,
          market: many,
          token: 0,
          side: Side.SELL,
          price: 54,
          size: TOKEN,
          builder: B3,
        });
        ops.place({
          id: `gina-buy-plain-${round}`,
          owner: GINA,
          market: many,
          token: 0,
          side: Side.BUY,
          price: 54,
          size: TOKEN,
        });
      });
      await ledger.apply(job!);
    }
    // The trades in which an order carrying the builder took or rested, straight from the orders.
    const expected = async (builder: string) =>
      (
        await db.sql<{ trade_id: string }[]>`
      SELECT trade_id FROM trades t
       WHERE EXISTS (SELECT 1 FROM orders o WHERE o.order_id = t.taker_order_id AND o.builder = ${builder})
          OR EXISTS (SELECT 1 FROM trade_fills f JOIN orders o ON o.order_id = f.maker_order_id WHERE f.trade_id = t.trade_id AND o.builder = ${builder})
       ORDER BY match_time DESC, shard DESC, seq DESC`
      ).map((row) => row.trade_id);
    const b2 = await expected(B2);
    expect(b2).toHaveLength(6 * 2);
    for (const limit of [1, 2, 5, 13, 20]) {
      const pages: string[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await builderTrades(db.sql, { builder: B2, limit, offset });
        pages.push(...page.map((t) => t.id));
        if (page.length < limit) break;
      }
      expect(pages).toEqual(b2);
    }
    const all = await builderTrades(db.sql, { builder: B2, limit: 100 });
    expect(all.map((t) => t.type)).toEqual(all.map((t) => (t.taker_order_id.startsWith('gina') ? 'TAKER' : 'MAKER')));
    expect((await builderTrades(db.sql, { builder: B3, limit: 100 })).map((t) => [t.id, t.type])).toEqual(
      (await expected(B3)).map((id) => [id, 'MAKER']),
    );
    // Both codes at once (a caller's own builders): a trade that carried both is listed once.
    const either = (
      await db.sql<{ trade_id: string }[]>`
      SELECT trade_id FROM trades t
       WHERE EXISTS (SELECT 1 FROM builder_trades b WHERE b.trade_id = t.trade_id AND b.builder IN (${B2}, ${B3}))
       ORDER BY match_time DESC, shard DESC, seq DESC`
    ).map((row) => row.trade_id);
    expect(either.length).toBeLessThan(b2.length + (await expected(B3)).length);
    for (const limit of [1, 7, 100]) {
      const pages: string[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await builderTrades(db.sql, { builder: [B2, B3], limit, offset });
        pages.push(...page.map((t) => t.id));
        if (page.length < limit) break;
      }
      expect(pages).toEqual(either);
    }
    // The migration's backfill of trades from before it gives the rows ingest writes.
    const rows = () => db.sql`SELECT * FROM builder_trades ORDER BY builder, trade_id`;
    const written = await rows();
    expect(written.length).toBeGreaterThan(b2.length);
    const migration = readFileSync(
      new URL('../../../packages/db/migrations/015_builder_trades.sql', import.meta.url),
      'utf8',
    );
    await db.sql`DELETE FROM builder_trades`;
    await db.sql.unsafe(migration.slice(migration.indexOf('INSERT INTO builder_trades')));
    expect(await rows()).toEqual(written);
  });
});

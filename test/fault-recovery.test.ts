// When the front end's state and the ledger part ways, with ingest running: an open order the
// ledger's balances no longer cover is cancelled at recovery (and closed in the ledger), and a
// shard reply the front end cannot apply halts trading (503) until a restart recovers; a
// dead-man's switch that expires while a restart recovers fires once trading opens.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import type { Harness } from '@pmx/clob/testing';
import { shardOf } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const USDC = 1_000_000n;
let system: ClobWithIngest;
let h: Harness;

beforeAll(async () => {
  system = await startClobWithIngest({ PMX_HEARTBEAT_TIMEOUT_MS: '1000' });
  h = system.h;
}, 60_000);

afterAll(async () => {
  await system?.close();
});

afterEach(async () => {
  h.expectConsistent();
  expect(await checkLedger(h.sql)).toEqual([]);
});

async function trader(collateral: bigint, tokens?: { id: string; amount: bigint }): Promise<Trader> {
  const t = new Trader(h.url);
  await t.createApiKey();
  if (collateral > 0n) await h.deposit(t.address, collateral);
  if (tokens !== undefined) await h.deposit(t.address, tokens.amount, tokens.id);
  return t;
}

/** A fresh condition id whose market lives on the given shard of two. */
function conditionIdOnShard(shard: number): string {
  for (;;) {
    const id = `0x${randomBytes(32).toString('hex')}`;
    if (shardOf(id, 2) === shard) return id;
  }
}

/** Waits until ingest has written the order with this status. */
async function ledgerStatus(orderId: string, status: string): Promise<{ status: string; close_reason: string | null }> {
  await expect
    .poll(
      async () => (await h.sql<{ status: string }[]>`SELECT status FROM orders WHERE order_id = ${orderId}`)[0]?.status,
      { timeout: 15_000 },
    )
    .toBe(status);
  const [row] = await h.sql<
    { status: string; close_reason: string | null }[]
  >`SELECT status, close_reason FROM orders WHERE order_id = ${orderId}`;
  return row!;
}

describe('the front end and the ledger part ways', () => {
  it('cancels at recovery the newest open orders the ledger no longer covers, through the shard and into the ledger', async () => {
    // The older order on shard 1, the newer on shard 0: oldest first means across shards.
    const { yes } = await h.createMarket({ condition_id: conditionIdOnShard(1) });
    const other = await h.createMarket({ condition_id: conditionIdOnShard(0) });
    const alice = await trader(10n * USDC);
    const older = (await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.50', 10) })).body.orderID as string;
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later acceptance time
    const newer = (await alice.placeOrder({ tokenId: other.yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    await ledgerStatus(newer, 'live');
    // A withdrawal that committed although the front end took it as failed (a connection lost
    // after the commit): the ledger now holds 5 USDC, which covers only the older order.
    await h.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${alice.address.toLowerCase()}, 'collateral', ${-5_000_000})`;

    await h.restart();
    alice.baseUrl = h.url;
    const open = (await alice.authed('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id);
    expect(open).toEqual([older]);
    expect((await alice.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body).toMatchObject({
      balance: String(5n * USDC),
      allowance: '0',
    });
    expect(await ledgerStatus(newer, 'cancelled')).toEqual({ status: 'cancelled', close_reason: 'uncovered' });
    expect(await ledgerStatus(older, 'live')).toEqual({ status: 'live', close_reason: null });

    // The covered order still trades and settles.
    const bob = await trader(0n, { id: yes, amount: 10n * USDC });
    expect((await bob.placeOrder({ tokenId: yes, ...limit('SELL', '0.50', 10) })).body).toMatchObject({
      success: true,
      status: 'matched',
    });
    await ledgerStatus(older, 'matched');
  });

  it('cancels at recovery the open orders of an API key that no longer exists', async () => {
    const { yes } = await h.createMarket();
    const alice = await trader(10n * USDC);
    const wallet = alice.address.toLowerCase();
    const orphan = (await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    await ledgerStatus(orphan, 'live');
    // A key's row gone while its order is open, as a crash in the middle of a deletion can leave
    // it: an order nobody can cancel, still on the book and holding funds.
    await h.sql`DELETE FROM api_keys WHERE api_key = ${alice.credentials!.apiKey}`;

    await h.restart();
    alice.baseUrl = h.url;
    expect(await ledgerStatus(orphan, 'cancelled')).toEqual({ status: 'cancelled', close_reason: 'key-deleted' });
    expect(h.app.core.openOrders.get(orphan)).toBeUndefined();
    expect(h.app.core.risk.reserved(orphan)).toBe(0);
    expect(h.app.core.risk.balance(wallet, 'collateral')).toEqual({
      total: Number(10n * USDC),
      reserved: 0,
      available: Number(10n * USDC),
    });
    expect((await alice.send('GET', `/book?token_id=${yes}`)).body.bids).toEqual([]);
  });

  it('halts trading when a shard reply cannot be applied, and a restart recovers what the shard did', async () => {
    const { yes } = await h.createMarket();
    const alice = await trader(10n * USDC);
    const bob = await trader(0n, { id: yes, amount: 10n * USDC });
    const bid = (await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.50', 10) })).body.orderID as string;
    // The front end loses the bid's reservation (a bug's stand-in): the shard still rests the
    // order, so settling a fill against it fails half-way.
    h.app.core.risk.release(bid);

    const sell = await bob.placeOrder({ tokenId: yes, ...limit('SELL', '0.50', 10) });
    expect(sell.body).toMatchObject({ success: true, status: 'matched' }); // the shard did match it
    expect((await h.app.fatal).message).toMatch(/no reservation/);
    const halted = /trading is halted/;
    const again = await bob.placeOrder({ tokenId: yes, ...limit('SELL', '0.50', 1) });
    expect(again.status).toBe(503);
    expect(again.body.error).toMatch(halted);
    const book = await bob.send('GET', `/book?token_id=${yes}`);
    expect([book.status, book.body.error]).toEqual([503, expect.stringMatching(halted)]);
    expect((await bob.send('GET', '/markets')).status).toBe(503); // listings carry live prices too
    // Whatever answers from balances or open orders says the same, the operator's transfers too.
    const fromState = [
      await bob.authed('DELETE', '/cancel-all'),
      await bob.authed('GET', '/balance-allowance?asset_type=COLLATERAL'),
      await h.operator('GET', `/operator/balances?address=${bob.address}`),
      await h.operator('POST', '/operator/deposit', { address: bob.address, amount: '1' }),
    ];
    expect(fromState.map((r) => [r.status, halted.test(r.body.error)])).toEqual(fromState.map(() => [503, true]));

    await ledgerStatus(bid, 'matched');
    await h.restart();
    for (const t of [alice, bob]) t.baseUrl = h.url;
    expect((await alice.authed('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${yes}`)).body.balance).toBe(
      String(10n * USDC),
    );
    expect((await bob.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body.balance).toBe(String(5n * USDC));
    expect((await alice.placeOrder({ tokenId: yes, ...limit('SELL', '0.60', 5) })).body).toMatchObject({
      success: true,
      status: 'live',
    });
  });

  it('answers 425 to cancels, order reads and balances while shards recover, then shows each open order whole', async () => {
    const { yes } = await h.createMarket();
    const mm = await trader(20n * USDC);
    const taker = await trader(0n, { id: yes, amount: 20n * USDC });
    const quote = (await mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    const fill = await taker.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 5) });
    const expiresAt = Date.now() + 2500;
    const gtd = (
      await mm.placeOrder({
        tokenId: yes,
        ...limit('BUY', '0.30', 10),
        orderType: 'GTD',
        expiration: Math.ceil(expiresAt / 1000),
      })
    ).body.orderID as string;
    await ledgerStatus(gtd, 'live');
    await system.stopIngest();
    await taker.placeOrder({ tokenId: yes, ...limit('SELL', '0.90', 5) }); // queued: the restart recovers slowly
    await h.restart({ waitReady: false });
    const restartedAt = performance.now();
    for (const t of [mm, taker]) t.baseUrl = h.url;

    // Every one of these would answer from a key's orders and balances, not all rebuilt yet.
    const recovering = [
      await mm.authed('DELETE', '/cancel-all'),
      await mm.authed('DELETE', '/order', { orderID: quote }),
      await mm.authed('DELETE', '/orders', [quote]),
      await mm.authed('DELETE', '/cancel-market-orders', { asset_id: yes }),
      await mm.authed('GET', '/data/orders'),
      await mm.authed('GET', `/data/order/${quote}`),
      await mm.authed('GET', '/balance-allowance?asset_type=COLLATERAL'),
      await h.operator('GET', `/operator/balances?address=${mm.address}`),
    ];
    expect(recovering.map((r) => [r.status, typeof r.body.error])).toEqual(recovering.map(() => [425, 'string']));

    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Math.ceil(expiresAt / 1000) * 1000 - Date.now() + 100)),
    );
    const ingestAwayMs = performance.now() - restartedAt;
    await system.startIngest();
    const took = await h.app.ready;
    // The recovery's own account puts the wait for ingest in ingest's drain, and counts this test's
    // three open orders among the ledger's (the quote, the GTD and the SELL queued while ingest was away).
    expect(took.drainMs).toBeGreaterThan(ingestAwayMs - took.loadMs - 100);
    expect(took.openOrders).toBeGreaterThanOrEqual(3);
    // The GTD's time came while the front end was down: gone as trading opens, not a sweep later.
    expect((await mm.authed('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toEqual([quote]);
    expect((await mm.send('GET', `/book?token_id=${yes}`)).body.bids).toEqual([{ price: '0.4', size: '5' }]);
    expect((await mm.authed('GET', `/data/order/${quote}`)).body).toMatchObject({
      status: 'LIVE',
      size_matched: '5',
      associate_trades: fill.body.tradeIDs,
    });
    expect((await mm.authed('DELETE', '/cancel-all')).body).toEqual({ canceled: [quote], not_canceled: {} });
    expect(await ledgerStatus(gtd, 'expired')).toMatchObject({ status: 'expired' });
  });

  it('stops at once when closed while recovery waits for ingest', async () => {
    const { yes } = await h.createMarket();
    const alice = await trader(10n * USDC);
    await system.stopIngest();
    await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) }); // queued, not in the ledger
    await h.restart({ waitReady: false });
    // Closing does not wait for recovery, which waits for ingest: a SIGTERM would never finish.
    const started = Date.now();
    await h.restart({ waitReady: false });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(h.app.core.allReady(2)).toBe(false);
    await system.startIngest();
    await h.app.ready;
  });

  it("fires a dead-man's switch that expired during recovery once trading opens", async () => {
    const { yes } = await h.createMarket();
    const mm = await trader(10n * USDC);
    const quote = (await mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    await ledgerStatus(quote, 'live');
    // Ingest falls behind with one more event in a shard's queue, so the restart recovers slowly.
    await system.stopIngest();
    const other = await trader(10n * USDC);
    await other.placeOrder({ tokenId: yes, ...limit('BUY', '0.10', 10) });
    await h.restart({ waitReady: false });
    for (const t of [mm, other]) t.baseUrl = h.url;
    // A key's delete cancels its orders, which cannot be done yet: retry shortly.
    expect((await other.authed('DELETE', '/auth/api-key')).status).toBe(425);

    // The bot re-arms after the restart, then dies; its switch expires while the shards recover.
    expect((await mm.authed('POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // timeout 1 s, a sweep every 1 s
    expect(h.app.core.allReady(2)).toBe(false);

    await system.startIngest();
    await h.app.ready;
    expect(await ledgerStatus(quote, 'cancelled')).toEqual({ status: 'cancelled', close_reason: 'user' });
    expect((await mm.authed('GET', '/data/orders')).body.data).toEqual([]);
    expect((await mm.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body.allowance).toBe(
      String(10n * USDC),
    );
  });
});

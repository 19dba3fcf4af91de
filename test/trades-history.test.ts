// The ledger and history read side through the front end, with ingest running: a trade made over
// HTTP shows up in GET /data/trades (CONFIRMED, every field filled), in the public recent trades
// and in the price history, once ingest has committed it and the front end copied it to ClickHouse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import type { Harness } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const USDC = 1_000_000n;
let system: ClobWithIngest;
let h: Harness;

beforeAll(async () => {
  system = await startClobWithIngest({}, { history: true });
  h = system.h;
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('trades and history through the front end', () => {
  it('a trade is confirmed in the ledger and shows in /data/trades, /trades and /prices-history', async () => {
    const { conditionId, yes } = await h.createMarket();
    const seller = new Trader(h.url);
    const buyer = new Trader(h.url);
    await seller.createApiKey();
    await buyer.createApiKey();
    await h.deposit(seller.address, 20n * USDC, yes);
    await h.deposit(buyer.address, 20n * USDC);
    const ask = await seller.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 10) });
    await seller.placeOrder({ tokenId: yes, ...limit('SELL', '0.45', 5) });
    await buyer.placeOrder({ tokenId: yes, ...limit('BUY', '0.30', 5) });
    const bid = await buyer.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) });
    const tradeId = bid.body.tradeIDs[0] as string;

    // MATCHED at once (the core's word), CONFIRMED once ingest has written it.
    await expect
      .poll(async () => (await buyer.authed('GET', `/data/trades?id=${tradeId}`)).body.data[0]?.status, {
        timeout: 15_000,
      })
      .toBe('CONFIRMED');
    const mine = await buyer.authed('GET', '/data/trades');
    expect(mine.body).toMatchObject({ next_cursor: 'LTE=', count: 1 });
    expect(mine.body.data[0]).toMatchObject({
      id: tradeId,
      taker_order_id: bid.body.orderID,
      market: conditionId,
      asset_id: yes,
      side: 'BUY',
      size: '10',
      price: '0.4',
      status: 'CONFIRMED',
      outcome: 'Yes',
      transaction_hash: bid.body.transactionsHashes[0],
      maker_orders: [expect.objectContaining({ order_id: ask.body.orderID, matched_amount: '10', price: '0.4' })],
    });
    expect(Date.parse(mine.body.data[0].match_time)).toBeGreaterThan(0);
    const theirs = await seller.authed('GET', '/data/trades');
    expect(theirs.body.data.map((t: { id: string }) => t.id)).toEqual([tradeId]);

    await expect
      .poll(async () => ((await buyer.send('GET', `/trades?market=${conditionId}`)).body as unknown[]).length, {
        timeout: 15_000,
      })
      .toBe(1);
    expect((await buyer.send('GET', `/trades?market=0x${conditionId.slice(2).toUpperCase()}`)).body).toHaveLength(1);
    // A limit past 1000 is taken as 1000, as the 400 for a malformed one says (10000 is not refused).
    expect(await buyer.send('GET', `/trades?market=${conditionId}&limit=10000`)).toMatchObject({
      status: 200,
      body: [expect.anything()],
    });
    const history = await buyer.send('GET', `/prices-history?market=${yes}&interval=1d&fidelity=1`);
    expect(history.status).toBe(200);
    expect(history.body.history.at(-1)).toEqual({ t: expect.any(Number), p: 0.375 });
    const batch = await buyer.send('POST', '/batch-prices-history', {
      body: JSON.stringify({ markets: [yes], interval: '1d' }),
    });
    expect(Object.keys(batch.body.history)).toEqual([yes]);
    expect(
      (
        await buyer.send('POST', '/batch-prices-history', {
          body: JSON.stringify({ markets: Array.from({ length: 21 }, () => yes) }),
        })
      ).status,
    ).toBe(400);
    expect((await buyer.send('GET', `/prices-history?market=${yes}&interval=2y`)).status).toBe(400);
    expect(await checkLedger(h.sql)).toEqual([]);
    h.expectConsistent();
  });

  it("GET /builder/trades without a code lists the trades of the caller's own builder code, and none without auth", async () => {
    const { yes } = await h.createMarket();
    const builder = new Trader(h.url);
    const taker = new Trader(h.url);
    await builder.createApiKey();
    await taker.createApiKey();
    const code = `0x${'b7'.repeat(32)}`;
    await h.deposit(builder.address, 20n * USDC);
    await h.deposit(taker.address, 20n * USDC, yes);
    const bid = await builder.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 5), builder: code });
    const hit = await taker.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 5) });
    expect([bid.body.status, hit.body.status]).toEqual(['live', 'matched']);
    const trade = hit.body.tradeIDs[0] as string;

    await expect
      .poll(async () => (await builder.authed('GET', '/builder/trades')).body.map((t: { id: string }) => t.id), {
        timeout: 15_000,
      })
      .toEqual([trade]);
    // The same as asking for the code, from the builder's side (its order rested: MAKER).
    const mine = (await builder.authed('GET', '/builder/trades')).body;
    expect(mine).toEqual((await taker.send('GET', `/builder/trades?builder_code=${code}`)).body);
    expect(mine[0]).toMatchObject({ id: trade, type: 'MAKER' });
    // A caller whose orders carried no code, or one that sends no credentials, has no builder trades.
    expect(await taker.authed('GET', '/builder/trades')).toMatchObject({ status: 200, body: [] });
    expect(await taker.send('GET', '/builder/trades')).toMatchObject({ status: 200, body: [] });
    // Credentials that do not authenticate are refused, as on every level-2 route.
    const forged = { ...taker.l2Headers('GET', '/builder/trades'), 'SVC-SIGNATURE': '00'.repeat(32) };
    expect((await taker.send('GET', '/builder/trades', { headers: forged })).status).toBe(401);
    expect((await taker.send('GET', '/builder/trades?builder=0x12')).status).toBe(400);
  });

  it("a proxy wallet's trades are its signer's, in /data/trades, as taker and as maker", async () => {
    const { yes } = await h.createMarket();
    const erin = new Trader(h.url);
    const other = new Trader(h.url);
    await erin.createApiKey();
    await other.createApiKey();
    const proxy = `0x${erin.address.slice(2, 10)}${'cd'.repeat(16)}`.toLowerCase();
    expect(
      (await h.operator('POST', '/operator/proxy-wallets', { proxy, signer: erin.address, signature_type: 2 })).status,
    ).toBe(201);
    await h.deposit(proxy, 20n * USDC);
    await h.deposit(other.address, 20n * USDC, yes);
    // Erin's proxy rests a bid (maker), then takes an ask (taker).
    const bid = await erin.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 5), signatureType: 2, maker: proxy });
    const hit = await other.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 5) });
    await other.placeOrder({ tokenId: yes, ...limit('SELL', '0.45', 5) });
    const lift = await erin.placeOrder({ tokenId: yes, ...limit('BUY', '0.45', 5), signatureType: 2, maker: proxy });
    expect([bid.body.status, hit.body.status, lift.body.status]).toEqual(['live', 'matched', 'matched']);

    const mine = async () =>
      (await erin.authed('GET', '/data/trades')).body.data as { id: string; type: string; trader_side: string }[];
    await expect.poll(async () => (await mine()).length, { timeout: 15_000 }).toBe(2);
    // `trader_side` is the official client's name for `type`.
    expect((await mine()).map((t) => [t.id, t.type, t.trader_side])).toEqual([
      [lift.body.tradeIDs[0], 'TAKER', 'TAKER'],
      [hit.body.tradeIDs[0], 'MAKER', 'MAKER'],
    ]);
    expect(await checkLedger(h.sql)).toEqual([]);
    h.expectConsistent();
  });

  it('a proxy moved to another signer leaves its past trades with the old signer, taker and maker as they were, also across a restart', async () => {
    const { yes } = await h.createMarket();
    const [alice, bob, other] = [new Trader(h.url), new Trader(h.url), new Trader(h.url)];
    for (const trader of [alice, bob, other]) await trader.createApiKey();
    const proxy = `0x${alice.address.slice(2, 10)}${'ab'.repeat(16)}`.toLowerCase();
    expect(
      (await h.operator('POST', '/operator/proxy-wallets', { proxy, signer: alice.address, signature_type: 2 })).status,
    ).toBe(201);
    await h.deposit(proxy, 20n * USDC);
    for (const trader of [alice, bob, other]) await h.deposit(trader.address, 20n * USDC, yes);
    await h.deposit(other.address, 20n * USDC);
    // Alice's proxy takes Bob's own ask; the proxy moves to Bob; Bob's proxy takes Alice's own ask.
    await bob.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 5) });
    const t1 = (await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 5), signatureType: 2, maker: proxy }))
      .body.tradeIDs[0] as string;
    expect(
      (
        await h.operator('POST', '/operator/proxy-wallets', {
          proxy,
          signer: bob.address,
          signature_type: 2,
          replace: true,
        })
      ).status,
    ).toBe(201);
    await alice.placeOrder({ tokenId: yes, ...limit('SELL', '0.41', 5) });
    const t2 = (await bob.placeOrder({ tokenId: yes, ...limit('BUY', '0.41', 5), signatureType: 2, maker: proxy })).body
      .tradeIDs[0] as string;
    const seen = async (trader: Trader) =>
      ((await trader.authed('GET', '/data/trades')).body.data as { id: string; type: string }[])
        .map((t) => `${t.id} ${t.type}`)
        .sort();
    const expected = { alice: [`${t1} TAKER`, `${t2} MAKER`].sort(), bob: [`${t1} MAKER`, `${t2} TAKER`].sort() };
    // Each signer sees the proxy's trades of its own span only, and a proxy the caller signs or
    // signed for makes it the taker only of trades the proxy took in that span.
    await expect
      .poll(async () => ({ alice: await seen(alice), bob: await seen(bob) }), { timeout: 15_000 })
      .toEqual(expected);
    // The spans are kept in Postgres: a restart shows the same.
    await h.restart();
    for (const trader of [alice, bob, other]) trader.baseUrl = h.url;
    expect({ alice: await seen(alice), bob: await seen(bob) }).toEqual(expected);
    // And back to Alice: her second span holds the proxy's next trade (a maker's, here).
    expect(
      (
        await h.operator('POST', '/operator/proxy-wallets', {
          proxy,
          signer: alice.address,
          signature_type: 2,
          replace: true,
        })
      ).status,
    ).toBe(201);
    await alice.placeOrder({ tokenId: yes, ...limit('SELL', '0.45', 5), signatureType: 2, maker: proxy });
    const t3 = (await other.placeOrder({ tokenId: yes, ...limit('BUY', '0.45', 5) })).body.tradeIDs[0] as string;
    await expect.poll(() => seen(alice), { timeout: 15_000 }).toEqual([...expected.alice, `${t3} MAKER`].sort());
    expect(await seen(bob)).toEqual(expected.bob);
    expect(await checkLedger(h.sql)).toEqual([]);
    h.expectConsistent();
  });
});

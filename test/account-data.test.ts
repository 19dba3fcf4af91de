// Account data from real trades: a clob and ingest over one database, the data service reading it.
// Five traders buy, sell, mint and merge through the exchange; every figure of their positions,
// closed positions and the market's holders is checked against numbers worked out by hand here
// (average cost, as ingest keeps it), and a restarted service shows exactly what the live one did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import { startData, type DataHarness } from '@pmx/data/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const USDC = 1_000_000n;
let system: ClobWithIngest;
let data: DataHarness;
let market: { conditionId: string; yes: string; no: string };
const traders: Record<'alice' | 'bob' | 'carol' | 'dave' | 'eve', Trader> = {} as never;
const wallet = (name: keyof typeof traders) => traders[name].address.toLowerCase();

async function trade(
  maker: Trader,
  makerOrder: Parameters<Trader['placeOrder']>[0],
  taker: Trader,
  order: typeof makerOrder,
) {
  const resting = await maker.placeOrder(makerOrder);
  expect(resting.body).toMatchObject({ success: true, status: 'live' });
  const taken = await taker.placeOrder(order);
  expect(taken.body).toMatchObject({ success: true, status: 'matched' });
}

beforeAll(async () => {
  system = await startClobWithIngest();
  const h = system.h;
  market = await h.createMarket({ min_order_size: '5' });
  for (const name of ['alice', 'bob', 'carol', 'dave', 'eve'] as const) {
    traders[name] = new Trader(h.url);
    await traders[name].createApiKey();
  }
  await h.deposit(traders.alice.address, 100n * USDC);
  await h.deposit(traders.bob.address, 20n * USDC, market.yes);
  await h.deposit(traders.bob.address, 5n * USDC, market.no);
  await h.deposit(traders.carol.address, 100n * USDC);
  await h.deposit(traders.dave.address, 100n * USDC);
  await h.deposit(traders.eve.address, 10n * USDC, market.yes);
  data = await startData({ sql: h.sql, clobUrl: h.url });

  const { alice, bob, carol, dave, eve } = traders;
  const { yes, no } = market;
  // 1. transfer: alice buys 10 YES at 0.40 from bob's deposited tokens.
  await trade(bob, { tokenId: yes, ...limit('SELL', '0.40', 10) }, alice, {
    tokenId: yes,
    ...limit('BUY', '0.40', 10),
  });
  // 2. mint: alice's BUY YES at 0.60 meets carol's BUY NO at 0.40.
  await trade(alice, { tokenId: yes, ...limit('BUY', '0.60', 5) }, carol, { tokenId: no, ...limit('BUY', '0.40', 5) });
  // 3. transfer: alice sells 6 YES to dave at 0.50.
  await trade(dave, { tokenId: yes, ...limit('BUY', '0.50', 6) }, alice, { tokenId: yes, ...limit('SELL', '0.50', 6) });
  // 4. merge: alice's SELL YES at 0.55 meets carol's SELL NO at 0.45.
  await trade(carol, { tokenId: no, ...limit('SELL', '0.45', 5) }, alice, {
    tokenId: yes,
    ...limit('SELL', '0.55', 5),
  });
  // 5. a book around 0.50 (dave bids 0.30, eve asks 0.70): the midpoint prices every position.
  expect((await dave.placeOrder({ tokenId: yes, ...limit('BUY', '0.30', 5) })).body.status).toBe('live');
  expect((await eve.placeOrder({ tokenId: yes, ...limit('SELL', '0.70', 5) })).body.status).toBe('live');
}, 180_000);

afterAll(async () => {
  await data?.close();
  await system?.close();
});

/** alice's YES position once every step is in (size 4) and the midpoint price read (0.5). */
async function alicePosition(): Promise<any> {
  const reply = await data.until(
    `/positions?user=${traders.alice.address}`,
    (r) => r.body[0]?.size === 4 && r.body[0]?.curPrice === 0.5,
    20_000,
  );
  return reply.body[0];
}

describe('positions from real trades', () => {
  it('values a position bought, minted, sold and merged at average cost, to the base unit', async () => {
    // Bought 10 at 0.40 (4.00) and minted 5 at 0.60 (3.00): 15 for 7.00. Sold 6 at 0.50: their
    // cost 7.00 × 6/15 = 2.80, realized 3.00 − 2.80 = 0.20; 9 left for 4.20. Merged 5 at 0.55: their
    // cost 4.20 × 5/9 = 2.333333 (down to the base unit), realized 2.75 − 2.333333 = 0.416667;
    // 4 left for 1.866667. Realized 0.616667 on a closed cost of 5.133333. Midpoint 0.50.
    expect(await alicePosition()).toEqual({
      proxyWallet: wallet('alice'),
      asset: `${market.conditionId}:0`,
      conditionId: market.conditionId,
      size: 4,
      avgPrice: 0.4666, // 1.866667 / 4 = 0.46666675, cut
      initialValue: 1.8666,
      currentValue: 2, // 4 × 0.50
      cashPnl: 0.1334, // 2 − 1.8666, as shown
      percentPnl: 7.1428, // (2 − 1.866667) / 1.866667 × 100 = 7.14283…
      totalBought: 15,
      realizedPnl: 0.6166,
      percentRealizedPnl: 12.0129, // 0.616667 / 5.133333 × 100 = 12.01299…
      curPrice: 0.5,
      redeemable: false,
      mergeable: false,
      title: expect.stringMatching(/^Test market \d+\?$/),
      slug: '',
      icon: '',
      eventSlug: '',
      outcome: 'Yes',
      outcomeIndex: 0,
      oppositeOutcome: 'No',
      oppositeAsset: `${market.conditionId}:1`,
      endDate: '',
      timestamp: expect.any(Number),
      negativeRisk: false,
    });
  });

  it('values deposited tokens at no cost, with the sale of some realized in full, and marks both outcomes mergeable', async () => {
    await alicePosition();
    const reply = await data.get(`/positions?user=${traders.bob.address}`);
    // Sorted by tokens, most first: 10 YES left of 20 deposited (10 sold at 0.40), 5 NO deposited.
    expect(reply.body.map((p: any) => [p.asset, p.size])).toEqual([
      [`${market.conditionId}:0`, 10],
      [`${market.conditionId}:1`, 5],
    ]);
    expect(reply.body[0]).toMatchObject({
      avgPrice: 0,
      initialValue: 0,
      currentValue: 5,
      cashPnl: 5,
      percentPnl: 0,
      totalBought: 0,
      realizedPnl: 4,
      percentRealizedPnl: 0,
      mergeable: true,
    });
    expect(reply.body[1]).toMatchObject({ currentValue: 2.5, mergeable: true, outcome: 'No', curPrice: 0.5 });
    const dave = (await data.get(`/positions?user=${traders.dave.address}`)).body;
    expect(dave).toEqual([
      expect.objectContaining({ size: 6, avgPrice: 0.5, initialValue: 3, currentValue: 3, cashPnl: 0, totalBought: 6 }),
    ]);
  });

  it('lists a position minted then merged away as closed, with its realized PnL', async () => {
    await alicePosition();
    expect((await data.get(`/positions?user=${traders.carol.address}`)).body).toEqual([]);
    const closed = await data.get(`/closed-positions?user=${traders.carol.address}`);
    // Minted 5 NO for 2.00 (0.40 each), merged them at 0.45: 2.25 − 2.00 = 0.25, 12.5 % of the cost.
    expect(closed.body).toEqual([
      {
        proxyWallet: wallet('carol'),
        asset: `${market.conditionId}:1`,
        conditionId: market.conditionId,
        size: 0,
        avgPrice: 0.4,
        initialValue: 0,
        currentValue: 0,
        cashPnl: 0,
        percentPnl: 0,
        totalBought: 5,
        realizedPnl: 0.25,
        percentRealizedPnl: 12.5,
        curPrice: 0.5,
        redeemable: false,
        mergeable: false,
        title: expect.any(String),
        slug: '',
        icon: '',
        eventSlug: '',
        outcome: 'No',
        outcomeIndex: 1,
        oppositeOutcome: 'Yes',
        oppositeAsset: `${market.conditionId}:0`,
        endDate: '',
        timestamp: expect.any(Number),
      },
    ]);
    expect((await data.get(`/closed-positions?user=${traders.alice.address}`)).body).toEqual([]);
  });

  it('ranks each outcome’s holders by amount with their public profiles', async () => {
    await alicePosition();
    const bob = wallet('bob');
    await system.h.sql`
      INSERT INTO catalog_profiles (proxy_wallet, base_address, name, pseudonym, bio, profile_image, display_username_public)
      VALUES (${bob}, ${bob}, 'Bob', 'Brave-Badger', 'market maker', 'https://img.example/bob.png', true)`;
    const reply = await data.until(
      `/holders?market=${market.conditionId}`,
      (r) => r.body[0]?.holders[0]?.name === 'Bob' || r.body[0]?.holders[1]?.name === 'Bob',
    );
    const tens = [wallet('bob'), wallet('eve')].sort();
    expect(reply.body.map((t: any) => [t.token, t.holders.map((h: any) => [h.proxyWallet, h.amount])])).toEqual([
      [
        `${market.conditionId}:0`,
        [
          [tens[0], 10],
          [tens[1], 10],
          [wallet('dave'), 6],
          [wallet('alice'), 4],
        ],
      ],
      [`${market.conditionId}:1`, [[bob, 5]]],
    ]);
    expect(reply.body[1].holders[0]).toEqual({
      proxyWallet: bob,
      bio: 'market maker',
      asset: `${market.conditionId}:1`,
      pseudonym: 'Brave-Badger',
      name: 'Bob',
      profileImage: 'https://img.example/bob.png',
      profileImageOptimized: '',
      amount: 5,
      displayUsernamePublic: true,
      outcomeIndex: 1,
    });
    // minBalance 6: only those holding at least 6; limit 1: the first.
    const few = await data.get(`/holders?market=${market.conditionId}&minBalance=6&limit=1`);
    expect(few.body.map((t: any) => t.holders.map((h: any) => h.amount))).toEqual([[10], []]);
  });

  it('shows the catalog’s title, slug, icon, event and end date once the market is listed there', async () => {
    await alicePosition();
    const sql = system.h.sql;
    const [event] = await sql`
      INSERT INTO catalog_events (ticker, slug, title, end_date, icon)
      VALUES ('rain', 'rain-in-2027', 'Rain in 2027', '2027-06-30T12:00:00Z', 'https://img.example/rain-event.png')
      RETURNING id`;
    const [listed] = await sql`
      INSERT INTO catalog_markets (condition_id, question, slug)
      VALUES (${market.conditionId}, 'Will it rain in 2027?', 'will-it-rain-in-2027') RETURNING id`;
    await sql`INSERT INTO catalog_event_markets (event_id, market_id) VALUES (${event!.id}, ${listed!.id})`;
    const reply = await data.until(`/positions?user=${traders.alice.address}`, (r) => r.body[0]?.eventSlug !== '');
    expect(reply.body[0]).toMatchObject({
      title: 'Will it rain in 2027?',
      slug: 'will-it-rain-in-2027',
      icon: 'https://img.example/rain-event.png',
      eventSlug: 'rain-in-2027',
      endDate: '2027-06-30T12:00:00.000Z',
    });
    expect((await data.get(`/positions?user=${traders.alice.address}&title=RAIN%20in`)).body).toHaveLength(1);
    expect((await data.get(`/positions?user=${traders.alice.address}&title=snow`)).body).toEqual([]);
  });

  it('shows after a restart exactly what it showed live', async () => {
    await alicePosition();
    const paths = [
      ...Object.values(traders).flatMap((t) => [`/positions?user=${t.address}`, `/closed-positions?user=${t.address}`]),
      `/holders?market=${market.conditionId}`,
    ];
    const live = await Promise.all(paths.map(async (path) => (await data.get(path)).body));
    expect(data.app.projection.stats.snapshots).toBe(1);
    await data.restart();
    // The restarted service values open markets at the clob's prices once it has read them.
    await alicePosition();
    expect(await Promise.all(paths.map(async (path) => (await data.get(path)).body))).toEqual(live);
  });

  it('leaves the ledger sound and the exchange consistent', async () => {
    await alicePosition();
    system.h.expectConsistent();
    expect(await checkLedger(system.h.sql)).toEqual([]);
  });
});

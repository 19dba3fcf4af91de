// Market data end to end: books in either token's terms with the contract's hash, prices,
// midpoints, spreads, the market listing with cursors and health endpoints.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startClob, type Harness } from '../src/testing/clob-harness.ts';
import { Trader, eventually, limit } from '@pmx/testkit';

const USDC = 1_000_000n;
let h: Harness;
let market: { conditionId: string; yes: string; no: string };
let mm: Trader;

beforeAll(async () => {
  h = await startClob();
  market = await h.createMarket({ tick_size: '0.01' });
  mm = new Trader(h.url);
  await mm.createApiKey();
  await h.deposit(mm.address, 1000n * USDC);
  await h.deposit(mm.address, 1000n * USDC, market.yes);
  await mm.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.40', 10) });
  await mm.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.42', 20) });
  await mm.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.47', 30) });
  await mm.placeOrder({ tokenId: market.no, ...limit('BUY', '0.52', 5) }); // a YES ask at 0.48
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => h.expectConsistent());

const get = (path: string) => mm.send('GET', path);

describe('books', () => {
  it('lists bids ascending and asks descending (best last), mirrored orders included, with a checkable hash', async () => {
    const { body } = await get(`/book?token_id=${market.yes}`);
    expect(body.bids).toEqual([
      { price: '0.4', size: '10' },
      { price: '0.42', size: '20' },
    ]);
    expect(body.asks).toEqual([
      { price: '0.48', size: '5' },
      { price: '0.47', size: '30' },
    ]);
    expect(Object.keys(body)).toEqual([
      'market',
      'asset_id',
      'timestamp',
      'hash',
      'bids',
      'asks',
      'min_order_size',
      'tick_size',
      'neg_risk',
      'last_trade_price',
    ]);
    expect(body.timestamp).toMatch(/^\d{13}$/);
    expect(body.hash).toBe(
      createHash('sha1')
        .update(JSON.stringify({ ...body, hash: '' }))
        .digest('hex'),
    );
  });

  it("shows the second token's book as the mirror", async () => {
    const { body } = await get(`/book?token_id=${market.no}`);
    expect(body.bids).toEqual([
      { price: '0.52', size: '5' },
      { price: '0.53', size: '30' },
    ]);
    expect(body.asks).toEqual([
      { price: '0.6', size: '10' },
      { price: '0.58', size: '20' },
    ]);
  });

  it('shows a change of the book in the next read, in both tokens (the serialised book is cached per change)', async () => {
    const before = (await get(`/book?token_id=${market.yes}`)).body;
    const placed = await mm.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.41', 5) });
    const after = (await get(`/book?token_id=${market.yes}`)).body;
    expect(after.bids).toEqual([
      { price: '0.4', size: '10' },
      { price: '0.41', size: '5' },
      { price: '0.42', size: '20' },
    ]);
    expect(after.hash).not.toBe(before.hash);
    const [no] = (await mm.send('POST', '/books', { body: JSON.stringify([{ token_id: market.no }]) })).body;
    expect(no.asks).toContainEqual({ price: '0.59', size: '5' });
    expect((await mm.authed('DELETE', '/order', { orderID: placed.body.orderID })).body.canceled).toEqual([
      placed.body.orderID,
    ]);
    expect((await get(`/book?token_id=${market.yes}`)).body.bids).toEqual(before.bids);
  });

  it('POST /books answers each token in order', async () => {
    const { body } = await mm.send('POST', '/books', {
      body: JSON.stringify([{ token_id: market.no }, { token_id: market.yes }]),
    });
    expect(body.map((b: { asset_id: string }) => b.asset_id)).toEqual([market.no, market.yes]);
  });
});

describe('prices', () => {
  it('price by side, prices for many, midpoint, spread, tick size and neg risk', async () => {
    expect((await get(`/price?token_id=${market.yes}&side=BUY`)).body).toEqual({ price: '0.42' });
    expect((await get(`/price?token_id=${market.yes}&side=SELL`)).body).toEqual({ price: '0.47' });
    expect((await get(`/price?token_id=${market.yes}&side=buy`)).body).toEqual({ price: '0.42' });
    expect((await get(`/price?token_id=${market.yes}&side=Sell`)).body).toEqual({ price: '0.47' });
    const prices = await mm.send('POST', '/prices', {
      body: JSON.stringify([{ token_id: market.yes }, { token_id: market.no }]),
    });
    expect(prices.body).toEqual({
      [market.yes]: { BUY: '0.42', SELL: '0.47' },
      [market.no]: { BUY: '0.53', SELL: '0.58' },
    });
    expect((await get(`/midpoint?token_id=${market.yes}`)).body).toEqual({ mid: '0.445' });
    expect((await get(`/midpoint?token_id=${market.no}`)).body).toEqual({ mid: '0.555' });
    expect((await get(`/spread?token_id=${market.yes}`)).body).toEqual({ spread: '0.05' });
    expect((await get(`/tick-size?token_id=${market.yes}`)).body).toEqual({ minimum_tick_size: 0.01 });
    expect((await get(`/neg-risk?token_id=${market.yes}`)).body).toEqual({ neg_risk: false });
    expect((await get(`/last-trade-price?token_id=${market.yes}`)).body).toEqual({ price: '' });
  });

  it('midpoints, spreads and last trade prices for many tokens, "" where there is none', async () => {
    const empty = await h.createMarket();
    const post = async (path: string) =>
      (await mm.send('POST', path, { body: JSON.stringify([{ token_id: market.no }, { token_id: empty.yes }]) })).body;
    expect(await post('/midpoints')).toEqual({ [market.no]: '0.555', [empty.yes]: '' });
    expect(await post('/spreads')).toEqual({ [market.no]: '0.05', [empty.yes]: '' });
    expect(await post('/last-trades-prices')).toEqual([
      { token_id: market.no, price: '' },
      { token_id: empty.yes, price: '' },
    ]);
  });

  it('an empty side has no price and no midpoint', async () => {
    const empty = await h.createMarket();
    expect((await get(`/price?token_id=${empty.yes}&side=BUY`)).status).toBe(404);
    expect((await get(`/midpoint?token_id=${empty.yes}`)).status).toBe(404);
    expect((await get(`/book?token_id=${empty.yes}`)).body).toMatchObject({ bids: [], asks: [], last_trade_price: '' });
  });
});

describe('market listing', () => {
  it('pages with base64 cursors from MA== to LTE= and shows one market in detail', async () => {
    const first = await get('/markets?next_cursor=MA==');
    expect(first.body).toMatchObject({ next_cursor: 'LTE=', limit: 1000 });
    expect(first.body.count).toBe(first.body.data.length);
    const listed = first.body.data.find((m: { condition_id: string }) => m.condition_id === market.conditionId);
    expect(listed).toMatchObject({
      enable_order_book: true,
      active: true,
      closed: false,
      accepting_orders: true,
      minimum_order_size: 5,
      minimum_tick_size: 0.01,
      tokens: [
        { token_id: market.yes, outcome: 'Yes', price: 0.445, winner: false },
        { token_id: market.no, outcome: 'No', price: 0.555, winner: false },
      ],
      rewards: { rates: [], min_size: 0, max_spread: 0 },
    });
    const detail = await get(`/markets/${market.conditionId}`);
    expect(detail.body).toMatchObject({
      condition_id: market.conditionId,
      status: 'active',
      assets_ids: [market.yes, market.no],
      outcomes: ['Yes', 'No'],
      raw_metadata: {},
    });
    expect(typeof detail.body.market_id).toBe('number');
    // A condition id in upper-case hex is the same market (ids are stored lower-case).
    expect((await get(`/markets/0x${market.conditionId.slice(2).toUpperCase()}`)).body).toEqual(detail.body);
    expect((await get(`/clob-markets/0x${market.conditionId.slice(2).toUpperCase()}`)).status).toBe(200);
    expect((await get('/markets?next_cursor=LTE=')).body).toEqual({
      data: [],
      next_cursor: 'LTE=',
      limit: 1000,
      count: 0,
    });
  });

  it('fills event, tags, images, neg-risk group and raw_metadata from the catalog market linked to it', async () => {
    const linked = await h.createMarket({ neg_risk: true });
    const [event] = await h.sql`
      INSERT INTO catalog_events (ticker, slug, title, description, image, icon, end_date)
      VALUES ('fed', 'fed-decision', 'Fed decision', 'What the Fed does', 'https://img.example/fed.png',
              'https://img.example/fed-icon.png', '2027-01-31T00:00:00Z')
      RETURNING id`;
    const [catalogMarket] = await h.sql`
      INSERT INTO catalog_markets (condition_id, question, slug, description)
      VALUES (${linked.conditionId}, 'Fed cuts 25 bps?', 'fed-cuts-25', 'Resolves Yes on a 25 bps cut') RETURNING id`;
    const [economy, rates] = await h.sql`
      INSERT INTO catalog_tags (label, slug) VALUES ('Economy', 'economy'), ('Rates', 'rates') RETURNING id`;
    await h.sql`INSERT INTO catalog_event_markets (event_id, market_id) VALUES (${event!.id}, ${catalogMarket!.id})`;
    await h.sql`INSERT INTO catalog_event_tags (event_id, tag_id) VALUES (${event!.id}, ${economy!.id})`;
    await h.sql`INSERT INTO catalog_market_tags (market_id, tag_id) VALUES (${catalogMarket!.id}, ${rates!.id})`;

    const detail = await eventually(async () => {
      const reply = await get(`/markets/${linked.conditionId}`);
      return reply.body.event.slug === 'fed-decision' && reply.body.tags.length === 2 ? reply.body : false;
    });
    const group = `0x${createHash('sha256').update(`pmx-neg-risk:${event!.id}`).digest('hex')}`;
    expect(detail).toMatchObject({
      neg_risk: true,
      neg_risk_market_id: group,
      icon: 'https://img.example/fed-icon.png',
      image: 'https://img.example/fed.png',
      tags: ['Economy', 'Rates'],
      event: {
        id: String(event!.id),
        slug: 'fed-decision',
        title: 'Fed decision',
        ticker: 'fed',
        description: 'What the Fed does',
      },
      raw_metadata: {
        id: String(catalogMarket!.id),
        slug: 'fed-cuts-25',
        question: 'Fed cuts 25 bps?',
        description: 'Resolves Yes on a 25 bps cut',
        resolutionSource: '',
        startDate: null,
        endDate: '2027-01-31T00:00:00.000Z',
        eventId: String(event!.id),
        eventSlug: 'fed-decision',
      },
    });
    const listed = (await get('/markets')).body.data.find((m: any) => m.condition_id === linked.conditionId);
    const { status, market_id, slug, assets_ids, outcomes, event: e, raw_metadata, ...listing } = detail;
    expect([status, market_id, slug, assets_ids, outcomes, e, raw_metadata]).not.toContain(undefined);
    expect(listed).toEqual(listing);
    // Unlinked markets keep their empty catalog fields.
    expect((await get(`/markets/${market.conditionId}`)).body).toMatchObject({
      event: { id: '', slug: '', title: '', ticker: '', description: '' },
      tags: [],
      neg_risk_market_id: '',
      raw_metadata: {},
    });
  });
});

describe('health and time', () => {
  it('GET / is "OK", /time bare seconds, /version 2', async () => {
    // A JSON string, as the real service answers: a strict JSON client can parse it.
    const health = await fetch(`${h.url}/`);
    expect([health.headers.get('content-type'), await health.text()]).toEqual(['application/json', '"OK"']);
    const time = await get('/time');
    expect(Math.abs(Number(time.body) - Date.now() / 1000)).toBeLessThan(5);
    expect((await get('/version')).body).toEqual({ version: 2 });
  });

  it('GET /fees/builder-fees/{code}: rates of 0 for any builder code, 400 for one that is not bytes32', async () => {
    expect(await get(`/fees/builder-fees/0x${'Ab'.repeat(32)}`)).toMatchObject({
      status: 200,
      body: { builder_maker_fee_rate_bps: 0, builder_taker_fee_rate_bps: 0 },
    });
    for (const code of ['0x12', 'abc', `0x${'g'.repeat(64)}`])
      expect(await get(`/fees/builder-fees/${code}`)).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining('builder code') },
      });
  });
});

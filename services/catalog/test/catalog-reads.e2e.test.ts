// Catalog reads of markets, events, series and tags against a real server over real Postgres:
// shapes, defaults, aliases, AND-combined filters, sorting, paging, creator scoping and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogHarness } from '../src/testing/catalog-harness.ts';
import { idsOf, seedReadCatalog, type ReadFixture } from '../src/testing/read-fixture.ts';

let h: CatalogHarness;
let ids: ReadFixture['ids'];
let slugs: ReadFixture['slugs'];
let ob: ReadFixture['ob'];

beforeAll(async () => {
  ({ h, ids, slugs, ob } = await seedReadCatalog());
});

afterAll(async () => {
  await h?.close();
});

describe('GET /markets', () => {
  it('lists catalog markets by ascending id as a bare array, with JSON-encoded outcomes, prices and token ids', async () => {
    const { status, body } = await h.get('/markets');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([ids.m1, ids.m2, ids.m3, ids.m4, ids.m5]);
    const [m1, , m3, m4] = body;
    expect(m1).toMatchObject({
      question: 'Will Alice win the 2028 election?',
      conditionId: ob.m1!.conditionId,
      outcomes: '["Yes","No"]',
      outcomePrices: '["0.5","0.5"]',
      clobTokenIds: JSON.stringify(ob.m1!.tokens),
      active: true,
      closed: false,
      archived: false,
      volumeNum: 1000,
      volume: '1000',
    });
    expect(m1.events).toEqual([
      { id: ids.e1, ticker: slugs.e1, slug: slugs.e1, title: 'US Presidential Election 2028' },
    ]);
    expect(m3).toMatchObject({
      question: expect.stringMatching(/^Order-book market/),
      outcomes: '["Lakers","Celtics"]',
      orderPriceMinTickSize: 0.001,
    });
    expect(m4).toMatchObject({
      conditionId: '',
      outcomes: '["Up","Down"]',
      clobTokenIds: '[]',
      enableOrderBook: false,
      acceptingOrders: false,
      closed: true,
      closedTime: expect.any(String),
    });
    for (const field of [
      'id',
      'question',
      'conditionId',
      'slug',
      'resolutionSource',
      'startDate',
      'image',
      'icon',
      'description',
      'createdAt',
      'updatedAt',
      'questionID',
    ]) {
      expect(typeof m1[field], field).toBe('string');
    }
  });

  it('pages with limit (default 20, silently capped at 500) and offset (default 0)', async () => {
    expect(idsOf((await h.get('/markets?limit=2')).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get('/markets?limit=2&offset=1')).body)).toEqual([ids.m2, ids.m3]);
    expect((await h.get('/markets?limit=1000000')).body).toHaveLength(5);
    expect((await h.get('/markets?limit=99999999999999999999999')).body).toHaveLength(5);
    expect((await h.get('/markets?offset=99999999999999999999')).body).toEqual([]);
    expect((await h.get('/markets?limit=0')).body).toEqual([]);
  });

  it('filters on status flags only when given', async () => {
    expect(idsOf((await h.get('/markets?closed=true')).body)).toEqual([ids.m4]);
    expect(idsOf((await h.get('/markets?archived=true')).body)).toEqual([ids.m5]);
    expect(idsOf((await h.get('/markets?closed=false&archived=false')).body)).toEqual([ids.m1, ids.m2, ids.m3]);
    expect(idsOf((await h.get('/markets?active=TRUE&closed=0')).body)).toEqual([ids.m1, ids.m2, ids.m3, ids.m5]);
  });

  it('filters by tag (tag = tag_slug, tag_id; a market carries its events’ tags and its own)', async () => {
    expect(idsOf((await h.get('/markets?tag=politics')).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get('/markets?tag_slug=politics')).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get(`/markets?tag_id=${ids.Sports}`)).body)).toEqual([ids.m3]);
    expect(idsOf((await h.get(`/markets?tag_id=${ids.Science}`)).body)).toEqual([ids.m3]);
    expect((await h.get('/markets?tag=no-such-tag')).body).toEqual([]);
  });

  it('filters by event (event_id, event_slug = eventSlug), condition id (conditionId = condition_id), slug, token and id', async () => {
    expect(idsOf((await h.get(`/markets?event_id=${ids.e1}`)).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get(`/markets?event_slug=${slugs.e1}`)).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get(`/markets?eventSlug=${slugs.e2}`)).body)).toEqual([ids.m3]);
    expect(idsOf((await h.get(`/markets?conditionId=${ob.m2!.conditionId}`)).body)).toEqual([ids.m2]);
    expect(
      idsOf((await h.get(`/markets?condition_id=${ob.m2!.conditionId.toUpperCase().replace('0X', '0x')}`)).body),
    ).toEqual([ids.m2]);
    expect(idsOf((await h.get(`/markets?slug=${slugs.m1}`)).body)).toEqual([ids.m1]);
    // Gamma's token-to-market lookup: a UI holding a position's token finds its market.
    expect(idsOf((await h.get(`/markets?clob_token_ids=${ob.m2!.tokens[1]}`)).body)).toEqual([ids.m2]);
    expect(idsOf((await h.get(`/markets?clob_token_ids=${ob.m1!.tokens[0]},${ob.m2!.tokens[0]}`)).body)).toEqual([
      ids.m1,
      ids.m2,
    ]);
    expect((await h.get('/markets?clob_token_ids=424242')).body).toEqual([]);
    expect(idsOf((await h.get(`/markets?id=${ids.m2}&id=${ids.m4}`)).body)).toEqual([ids.m2, ids.m4]);
    expect((await h.get('/markets?event_slug=nope')).body).toEqual([]);
  });

  it('combines every filter with AND', async () => {
    expect((await h.get(`/markets?tag=politics&event_id=${ids.e2}`)).body).toEqual([]);
    expect(idsOf((await h.get(`/markets?tag=politics&closed=false&conditionId=${ob.m1!.conditionId}`)).body)).toEqual([
      ids.m1,
    ]);
    expect((await h.get(`/markets?tag=politics&closed=true`)).body).toEqual([]);
  });

  it('sorts by the documented camelCase fields, descending unless ascending=true, ties by id', async () => {
    expect(idsOf((await h.get('/markets?order=volume')).body)).toEqual([ids.m4, ids.m2, ids.m1, ids.m3, ids.m5]);
    expect(idsOf((await h.get('/markets?order=volumeNum&ascending=true')).body)).toEqual([
      ids.m5,
      ids.m3,
      ids.m1,
      ids.m2,
      ids.m4,
    ]);
    expect(idsOf((await h.get('/markets?order=volume24hr,id&limit=2')).body)).toEqual([ids.m3, ids.m1]);
    expect(idsOf((await h.get('/markets?order=liquidity&tag=politics')).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get('/markets?ascending=false&limit=1')).body)).toEqual([ids.m5]);
  });

  it('refuses an unknown sort field with the contract message', async () => {
    for (const order of ['bogus', 'volume,bogus', 'VOLUME', ',']) {
      expect(await h.get(`/markets?order=${order}`)).toMatchObject({
        status: 400,
        body: { type: 'bad request', error: 'order fields are not valid' },
      });
    }
  });

  it('scopes to a creator (case-insensitive)', async () => {
    expect(idsOf((await h.get('/markets?creator=SITE-A')).body)).toEqual([ids.m4]);
    expect((await h.get('/markets?creator=0x0000000000000000000000000000000000000001')).body).toEqual([]);
  });

  it('answers bad values with a typed bad request naming the parameter', async () => {
    const cases: [string, string][] = [
      ['active=maybe', 'active must be true or false'],
      ['limit=-1', 'limit must be a non-negative integer'],
      ['limit=abc', 'limit must be a non-negative integer'],
      ['limit=1e3', 'limit must be a non-negative integer'],
      ['offset=-5', 'offset must be a non-negative integer'],
      ['tag_id=x', 'tag_id must be a non-negative integer'],
      ['event_id=1.5', 'event_id must be a non-negative integer'],
      ['ascending=yes', 'ascending must be true or false'],
      [`slug=${'x'.repeat(600)}`, 'slug is too long (at most 500 characters)'],
    ];
    for (const [query, error] of cases) {
      expect(await h.get(`/markets?${query}`), query).toMatchObject({
        status: 400,
        body: { type: 'bad request', error },
      });
    }
  });

  it('ignores parameters it does not know and empty values', async () => {
    expect((await h.get('/markets?whatever=1&active=&tag=')).body).toHaveLength(5);
  });
});

describe('GET /markets/{id} and /markets/slug/{slug}', () => {
  const SUMMARY = [
    'id',
    'ticker',
    'slug',
    'title',
    'description',
    'resolutionSource',
    'startDate',
    'creationDate',
    'endDate',
    'image',
    'icon',
    'active',
    'closed',
    'archived',
    'createdAt',
    'updatedAt',
  ];

  it('finds a market by numeric id or by condition id, with full event summaries', async () => {
    const byId = await h.get(`/markets/${ids.m1}`);
    expect(byId.status).toBe(200);
    expect(Object.keys(byId.body.events[0])).toEqual(SUMMARY);
    expect(byId.body.events[0]).toMatchObject({
      id: ids.e1,
      startDate: '2025-01-01T00:00:00.000Z',
      endDate: '2028-11-07T00:00:00.000Z',
    });
    expect((await h.get(`/markets/${ob.m1!.conditionId}`)).body).toEqual(byId.body);
    expect((await h.get(`/markets/${ob.m1!.conditionId.toUpperCase().replace('0X', '0x')}`)).body.id).toBe(ids.m1);
    expect((await h.get(`/markets/slug/${slugs.m1}`)).body).toEqual(byId.body);
  });

  it('answers not found with the contract messages', async () => {
    for (const id of ['999999', 'abc', '0xdeadbeef', '99999999999999999999999999']) {
      expect(await h.get(`/markets/${id}`), id).toMatchObject({
        status: 404,
        body: { type: 'not found error', error: 'id not found' },
      });
    }
    expect(await h.get('/markets/slug/nope')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    });
  });

  it('scopes a lookup to its creator', async () => {
    expect((await h.get(`/markets/${ids.m4}?creator=site-a`)).status).toBe(200);
    expect((await h.get(`/markets/${ids.m1}?creator=site-a`)).status).toBe(404);
    expect((await h.get(`/markets/slug/${slugs.m1}?creator=site-a`)).body).toEqual({
      type: 'not found error',
      error: 'slug not found',
    });
  });
});

describe('GET /events', () => {
  it('lists events with id through updatedAt and tags only', async () => {
    const { body } = await h.get('/events');
    expect(idsOf(body)).toEqual([ids.e1, ids.e2, ids.e3, ids.e4]);
    const e1 = body[0];
    expect(e1).not.toHaveProperty('creationDate');
    expect(e1).not.toHaveProperty('markets');
    expect(e1).not.toHaveProperty('series');
    expect(e1).not.toHaveProperty('eventMetadata');
    expect(e1.tags).toEqual([
      {
        id: ids.Politics,
        label: 'Politics',
        slug: 'politics',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        requiresTranslation: false,
      },
    ]);
    expect(e1).toMatchObject({ title: 'US Presidential Election 2028', volume: 6000, volume24hr: 60, liquidity: 400 });
  });

  it('filters by tag, tag_id, series_slug, slug, flags and creator, AND-combined', async () => {
    expect(idsOf((await h.get('/events?tag=sports')).body)).toEqual([ids.e2]);
    expect(idsOf((await h.get(`/events?tag_id=${ids.Crypto}`)).body)).toEqual([ids.e3]);
    expect(idsOf((await h.get('/events?series_slug=nba-games')).body)).toEqual([ids.e2]);
    expect((await h.get('/events?series_slug=nope')).body).toEqual([]);
    expect(idsOf((await h.get(`/events?slug=${slugs.e2}`)).body)).toEqual([ids.e2]);
    expect(idsOf((await h.get('/events?closed=true')).body)).toEqual([ids.e3]);
    expect(idsOf((await h.get('/events?active=false')).body)).toEqual([ids.e4]);
    expect(idsOf((await h.get('/events?archived=false&closed=false')).body)).toEqual([ids.e1, ids.e2]);
    expect(idsOf((await h.get('/events?creator=site-a')).body)).toEqual([ids.e3]);
    expect((await h.get('/events?tag=sports&closed=true')).body).toEqual([]);
  });

  it('sorts by volume (its markets’ total) and pages', async () => {
    expect(idsOf((await h.get('/events?order=volume')).body)).toEqual([ids.e3, ids.e1, ids.e2, ids.e4]);
    expect(idsOf((await h.get('/events?order=volume&limit=1&offset=1')).body)).toEqual([ids.e1]);
    expect(idsOf((await h.get('/events?order=endDate&ascending=true')).body)).toEqual([ids.e2, ids.e1, ids.e3, ids.e4]);
    expect(await h.get('/events?order=nope')).toMatchObject({
      status: 400,
      body: { error: 'order fields are not valid' },
    });
  });

  it('shows one event with creationDate, markets and series (without events) and eventMetadata', async () => {
    const { status, body } = await h.get(`/events/${ids.e2}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: ids.e2, creationDate: expect.any(String), eventMetadata: {} });
    expect(idsOf(body.markets)).toEqual([ids.m3]);
    expect(body.markets[0]).not.toHaveProperty('events');
    expect(body.markets[0].clobTokenIds).toBe(JSON.stringify(ob.m3!.tokens));
    expect(idsOf(body.series)).toEqual([ids.nba]);
    expect(body.series[0]).not.toHaveProperty('events');
    expect((await h.get(`/events/${ids.e1}`)).body.eventMetadata).toEqual({ context: 'national' });
    expect((await h.get(`/events/slug/${slugs.e2}`)).body).toEqual(body);
  });

  it('answers bad and unknown ids and slugs with the contract errors', async () => {
    expect(await h.get('/events/abc')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'id must be an integer' },
    });
    expect(await h.get('/events/-1')).toMatchObject({ status: 400, body: { type: 'bad request' } });
    expect(await h.get('/events/999999')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(await h.get('/events/slug/nope')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    });
    expect((await h.get(`/events/${ids.e1}?creator=site-a`)).status).toBe(404);
  });
});

describe('GET /series', () => {
  it('lists series with their events as summaries, scoped by creator, capped at 50', async () => {
    const { body } = await h.get('/series?limit=5000');
    expect(idsOf(body)).toEqual([ids.nba, ids.siteSeries]);
    expect(body[0]).toMatchObject({
      title: 'NBA Games',
      slug: 'nba-games',
      recurrence: 'daily',
      seriesType: 'single',
      active: true,
    });
    expect(idsOf(body[0].events)).toEqual([ids.e2]);
    expect(body[0].events[0]).toHaveProperty('creationDate');
    expect(idsOf((await h.get('/series?creator=site-a')).body)).toEqual([ids.siteSeries]);
    expect(idsOf((await h.get('/series?offset=1')).body)).toEqual([ids.siteSeries]);
  });

  it('shows one series, and answers bad or unknown ids', async () => {
    expect((await h.get(`/series/${ids.nba}`)).body).toMatchObject({ id: ids.nba, events: [{ id: ids.e2 }] });
    expect(await h.get('/series/x')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'id must be an integer' },
    });
    expect(await h.get('/series/999999')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
  });
});

describe('GET /tags', () => {
  it('lists, sorts and pages tags; finds one by id or slug', async () => {
    expect(idsOf((await h.get('/tags')).body)).toEqual([ids.Politics, ids.Sports, ids.Crypto, ids.Science]);
    expect((await h.get('/tags?order=label&ascending=true')).body.map((t: { label: string }) => t.label)).toEqual([
      'Crypto',
      'Politics',
      'Science',
      'Sports',
    ]);
    expect(idsOf((await h.get('/tags?limit=1&offset=2')).body)).toEqual([ids.Crypto]);
    expect((await h.get(`/tags/${ids.Sports}`)).body).toMatchObject({
      id: ids.Sports,
      label: 'Sports',
      slug: 'sports',
      requiresTranslation: false,
    });
    expect((await h.get('/tags/slug/crypto')).body.id).toBe(ids.Crypto);
    expect(await h.get('/tags/slug/nope')).toMatchObject({ status: 404, body: { error: 'slug not found' } });
    expect(await h.get('/tags/999999')).toMatchObject({ status: 404, body: { error: 'id not found' } });
    expect(await h.get('/tags/nope')).toMatchObject({ status: 400, body: { error: 'id must be an integer' } });
  });
});

// Every catalog read endpoint and filter against a real server over real Postgres, on a small
// hand-built catalog created through the operator API (comments straight in SQL, so they reach
// the projection through NOTIFY): shapes, defaults, aliases, AND-combined filters, sorting,
// paging, creator scoping, and the contract's typed errors for bad and hostile input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startCatalog, type CatalogHarness } from './testing/catalog-harness.ts';

let h: CatalogHarness;
const ids: Record<string, string> = {};
const slugs: Record<string, string> = {};
const ob: Record<string, { conditionId: string; tokens: [string, string] }> = {};
const ALICE = '0x00000000000000000000000000000000000a11ce';
const ALICE_BASE = '0x00000000000000000000000000000000000ba5e0';
const CAROL = '0x0000000000000000000000000000000000000ca2';

async function create(path: string, body: unknown): Promise<any> {
  const response = await h.operator('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const idsOf = (body: { id: string }[]) => body.map((item) => item.id);

beforeAll(async () => {
  h = await startCatalog();
  ob.m1 = await h.orderBookMarket();
  ob.m2 = await h.orderBookMarket();
  ob.m3 = await h.orderBookMarket({ outcomes: ['Lakers', 'Celtics'], tickSize: '0.001' });
  ob.m5 = await h.orderBookMarket();

  for (const label of ['Politics', 'Sports', 'Crypto', 'Science']) ids[label] = (await create('/operator/tags', { label })).id;
  const nba = await create('/operator/series', { title: 'NBA Games', recurrence: 'daily' });
  ids.nba = nba.id;
  ids.siteSeries = (await create('/operator/series', { title: 'Site Series', creator: 'Site-A' })).id;

  const e1 = await create('/operator/events', {
    title: 'US Presidential Election 2028',
    tagIds: [Number(ids.Politics)],
    startDate: '2025-01-01T00:00:00Z',
    endDate: '2028-11-07T00:00:00Z',
    eventMetadata: { context: 'national' },
  });
  const e2 = await create('/operator/events', { title: 'Lakers vs. Celtics', tagIds: [Number(ids.Sports)], seriesIds: [Number(ids.nba)], endDate: '2026-02-01T00:00:00Z' });
  const e3 = await create('/operator/events', { title: 'Bitcoin above 100k by June?', tagIds: [Number(ids.Crypto)], creator: 'Site-A', closed: true });
  const e4 = await create('/operator/events', { title: 'Old archived event', archived: true, active: false });
  Object.assign(ids, { e1: e1.id, e2: e2.id, e3: e3.id, e4: e4.id });
  Object.assign(slugs, { e1: e1.slug, e2: e2.slug });

  const m1 = await create('/operator/markets', { conditionId: ob.m1!.conditionId, question: 'Will Alice win the 2028 election?', eventIds: [Number(ids.e1)], volume: 1000, volume24hr: 50, liquidity: 300, competitive: 0.9 });
  const m2 = await create('/operator/markets', { conditionId: ob.m2!.conditionId, question: 'Will Bob win the 2028 election?', eventIds: [Number(ids.e1)], volume: '5000', volume24hr: 10, liquidity: 100 });
  const m3 = await create('/operator/markets', { conditionId: ob.m3!.conditionId, eventIds: [Number(ids.e2)], volume: 300, volume24hr: 300, tagIds: [Number(ids.Science)] });
  const m4 = await create('/operator/markets', { question: 'Bitcoin above $100k by June?', outcomes: ['Up', 'Down'], eventIds: [Number(ids.e3)], creator: 'site-a', closed: true, volume: 20000 });
  const m5 = await create('/operator/markets', { conditionId: ob.m5!.conditionId, question: 'Standalone market?', archived: true });
  Object.assign(ids, { m1: m1.id, m2: m2.id, m3: m3.id, m4: m4.id, m5: m5.id });
  Object.assign(slugs, { m1: m1.slug, m3: m3.slug });

  expect((await h.operator('PUT', `/operator/profiles/${ALICE}`, { name: 'Alice Trader', pseudonym: 'Brave-Otter', baseAddress: ALICE_BASE, displayUsernamePublic: true })).status).toBe(200);
  expect((await h.operator('PUT', `/operator/profiles/${CAROL}`, { pseudonym: 'Quiet-Lynx' })).status).toBe(200);

  // Comments arrive through NOTIFY only: written by "another process".
  const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 12, minute));
  const [c1] = await h.db.sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, reaction_count, created_at, updated_at)
    VALUES ('Alice is underpriced', 'Event', ${ids.e1!}, ${ALICE}, 5, ${at(1)}, ${at(1)}) RETURNING id`;
  const [c2] = await h.db.sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, reaction_count, created_at, updated_at)
    VALUES ('No way', 'Event', ${ids.e1!}, ${CAROL}, 1, ${at(2)}, ${at(2)}) RETURNING id`;
  const [c3] = await h.db.sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, parent_comment_id, user_address, reply_address, created_at, updated_at)
    VALUES ('Source?', 'Event', ${ids.e1!}, ${c1!.id}, ${CAROL}, ${ALICE}, ${at(3)}, ${at(3)}) RETURNING id`;
  const [c4] = await h.db.sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, created_at, updated_at)
    VALUES ('Market comment', 'market', ${ids.m1!}, ${ALICE}, ${at(4)}, ${at(4)}) RETURNING id`;
  const [c5] = await h.db.sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, created_at, updated_at)
    VALUES ('Series comment', 'Series', ${ids.nba!}, ${CAROL}, ${at(5)}, ${at(5)}) RETURNING id`;
  Object.assign(ids, { c1: String(c1!.id), c2: String(c2!.id), c3: String(c3!.id), c4: String(c4!.id), c5: String(c5!.id) });
  await eventually(async () => expect((await h.get(`/comments/${ids.c1}`)).body).toHaveLength(1));
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
    expect(m1.events).toEqual([{ id: ids.e1, ticker: slugs.e1, slug: slugs.e1, title: 'US Presidential Election 2028' }]);
    expect(m3).toMatchObject({ question: expect.stringMatching(/^Order-book market/), outcomes: '["Lakers","Celtics"]', orderPriceMinTickSize: 0.001 });
    expect(m4).toMatchObject({ conditionId: '', outcomes: '["Up","Down"]', clobTokenIds: '[]', enableOrderBook: false, closed: true, closedTime: expect.any(String) });
    for (const field of ['id', 'question', 'conditionId', 'slug', 'resolutionSource', 'startDate', 'image', 'icon', 'description', 'createdAt', 'updatedAt', 'questionID']) {
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

  it('filters by event (event_id, event_slug = eventSlug), condition id (conditionId = condition_id), slug and id', async () => {
    expect(idsOf((await h.get(`/markets?event_id=${ids.e1}`)).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get(`/markets?event_slug=${slugs.e1}`)).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get(`/markets?eventSlug=${slugs.e2}`)).body)).toEqual([ids.m3]);
    expect(idsOf((await h.get(`/markets?conditionId=${ob.m2!.conditionId}`)).body)).toEqual([ids.m2]);
    expect(idsOf((await h.get(`/markets?condition_id=${ob.m2!.conditionId.toUpperCase().replace('0X', '0x')}`)).body)).toEqual([ids.m2]);
    expect(idsOf((await h.get(`/markets?slug=${slugs.m1}`)).body)).toEqual([ids.m1]);
    expect(idsOf((await h.get(`/markets?id=${ids.m2}&id=${ids.m4}`)).body)).toEqual([ids.m2, ids.m4]);
    expect((await h.get('/markets?event_slug=nope')).body).toEqual([]);
  });

  it('combines every filter with AND', async () => {
    expect((await h.get(`/markets?tag=politics&event_id=${ids.e2}`)).body).toEqual([]);
    expect(idsOf((await h.get(`/markets?tag=politics&closed=false&conditionId=${ob.m1!.conditionId}`)).body)).toEqual([ids.m1]);
    expect((await h.get(`/markets?tag=politics&closed=true`)).body).toEqual([]);
  });

  it('sorts by the documented camelCase fields, descending unless ascending=true, ties by id', async () => {
    expect(idsOf((await h.get('/markets?order=volume')).body)).toEqual([ids.m4, ids.m2, ids.m1, ids.m3, ids.m5]);
    expect(idsOf((await h.get('/markets?order=volumeNum&ascending=true')).body)).toEqual([ids.m5, ids.m3, ids.m1, ids.m2, ids.m4]);
    expect(idsOf((await h.get('/markets?order=volume24hr,id&limit=2')).body)).toEqual([ids.m3, ids.m1]);
    expect(idsOf((await h.get('/markets?order=liquidity&tag=politics')).body)).toEqual([ids.m1, ids.m2]);
    expect(idsOf((await h.get('/markets?ascending=false&limit=1')).body)).toEqual([ids.m5]);
  });

  it('refuses an unknown sort field with the contract message', async () => {
    for (const order of ['bogus', 'volume,bogus', 'VOLUME', ',']) {
      expect(await h.get(`/markets?order=${order}`)).toMatchObject({ status: 400, body: { type: 'bad request', error: 'order fields are not valid' } });
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
      expect(await h.get(`/markets?${query}`), query).toMatchObject({ status: 400, body: { type: 'bad request', error } });
    }
  });

  it('ignores parameters it does not know and empty values', async () => {
    expect((await h.get('/markets?whatever=1&active=&tag=')).body).toHaveLength(5);
  });
});

describe('GET /markets/{id} and /markets/slug/{slug}', () => {
  const SUMMARY = ['id', 'ticker', 'slug', 'title', 'description', 'resolutionSource', 'startDate', 'creationDate', 'endDate', 'image', 'icon', 'active', 'closed', 'archived', 'createdAt', 'updatedAt'];

  it('finds a market by numeric id or by condition id, with full event summaries', async () => {
    const byId = await h.get(`/markets/${ids.m1}`);
    expect(byId.status).toBe(200);
    expect(Object.keys(byId.body.events[0])).toEqual(SUMMARY);
    expect(byId.body.events[0]).toMatchObject({ id: ids.e1, startDate: '2025-01-01T00:00:00.000Z', endDate: '2028-11-07T00:00:00.000Z' });
    expect((await h.get(`/markets/${ob.m1!.conditionId}`)).body).toEqual(byId.body);
    expect((await h.get(`/markets/${ob.m1!.conditionId.toUpperCase().replace('0X', '0x')}`)).body.id).toBe(ids.m1);
    expect((await h.get(`/markets/slug/${slugs.m1}`)).body).toEqual(byId.body);
  });

  it('answers not found with the contract messages', async () => {
    for (const id of ['999999', 'abc', '0xdeadbeef', '99999999999999999999999999']) {
      expect(await h.get(`/markets/${id}`), id).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    }
    expect(await h.get('/markets/slug/nope')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'slug not found' } });
  });

  it('scopes a lookup to its creator', async () => {
    expect((await h.get(`/markets/${ids.m4}?creator=site-a`)).status).toBe(200);
    expect((await h.get(`/markets/${ids.m1}?creator=site-a`)).status).toBe(404);
    expect((await h.get(`/markets/slug/${slugs.m1}?creator=site-a`)).body).toEqual({ type: 'not found error', error: 'slug not found' });
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
    expect(e1.tags).toEqual([{ id: ids.Politics, label: 'Politics', slug: 'politics', createdAt: expect.any(String), updatedAt: expect.any(String), requiresTranslation: false }]);
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
    expect(await h.get('/events?order=nope')).toMatchObject({ status: 400, body: { error: 'order fields are not valid' } });
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
    expect(await h.get('/events/abc')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'id must be an integer' } });
    expect(await h.get('/events/-1')).toMatchObject({ status: 400, body: { type: 'bad request' } });
    expect(await h.get('/events/999999')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    expect(await h.get('/events/slug/nope')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'slug not found' } });
    expect((await h.get(`/events/${ids.e1}?creator=site-a`)).status).toBe(404);
  });
});

describe('GET /series', () => {
  it('lists series with their events as summaries, scoped by creator, capped at 50', async () => {
    const { body } = await h.get('/series?limit=5000');
    expect(idsOf(body)).toEqual([ids.nba, ids.siteSeries]);
    expect(body[0]).toMatchObject({ title: 'NBA Games', slug: 'nba-games', recurrence: 'daily', seriesType: 'single', active: true });
    expect(idsOf(body[0].events)).toEqual([ids.e2]);
    expect(body[0].events[0]).toHaveProperty('creationDate');
    expect(idsOf((await h.get('/series?creator=site-a')).body)).toEqual([ids.siteSeries]);
    expect(idsOf((await h.get('/series?offset=1')).body)).toEqual([ids.siteSeries]);
  });

  it('shows one series, and answers bad or unknown ids', async () => {
    expect((await h.get(`/series/${ids.nba}`)).body).toMatchObject({ id: ids.nba, events: [{ id: ids.e2 }] });
    expect(await h.get('/series/x')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'id must be an integer' } });
    expect(await h.get('/series/999999')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
  });
});

describe('GET /tags', () => {
  it('lists, sorts and pages tags; finds one by id or slug', async () => {
    expect(idsOf((await h.get('/tags')).body)).toEqual([ids.Politics, ids.Sports, ids.Crypto, ids.Science]);
    expect((await h.get('/tags?order=label&ascending=true')).body.map((t: { label: string }) => t.label)).toEqual(['Crypto', 'Politics', 'Science', 'Sports']);
    expect(idsOf((await h.get('/tags?limit=1&offset=2')).body)).toEqual([ids.Crypto]);
    expect((await h.get(`/tags/${ids.Sports}`)).body).toMatchObject({ id: ids.Sports, label: 'Sports', slug: 'sports', requiresTranslation: false });
    expect((await h.get('/tags/slug/crypto')).body.id).toBe(ids.Crypto);
    expect(await h.get('/tags/slug/nope')).toMatchObject({ status: 404, body: { error: 'slug not found' } });
    expect(await h.get('/tags/999999')).toMatchObject({ status: 404, body: { error: 'id not found' } });
    expect(await h.get('/tags/nope')).toMatchObject({ status: 400, body: { error: 'id must be an integer' } });
  });
});

describe('GET /comments', () => {
  it('lists an entity’s top-level comments newest first, each with its replies (whose replies are empty)', async () => {
    const { body } = await h.get(`/comments?parent_entity_type=Event&parent_entity_id=${ids.e1}`);
    expect(idsOf(body)).toEqual([ids.c2, ids.c1]);
    const c1 = body[1];
    expect(c1).toMatchObject({
      body: 'Alice is underpriced',
      parentEntityType: 'Event',
      parentEntityID: Number(ids.e1),
      parentCommentID: '',
      userAddress: ALICE,
      replyAddress: '',
      reactions: [],
      reportCount: 0,
      reactionCount: 5,
      replyCount: 1,
    });
    expect(c1.profile).toEqual({
      name: 'Alice Trader',
      pseudonym: 'Brave-Otter',
      bio: '',
      proxyWallet: ALICE,
      baseAddress: ALICE_BASE,
      profileImage: '',
      displayUsernamePublic: true,
      isMod: false,
      isCreator: false,
      profileImageOptimized: {},
      positions: [],
    });
    expect(c1.replies).toHaveLength(1);
    expect(c1.replies[0]).toMatchObject({ id: ids.c3, parentCommentID: ids.c1, replyAddress: ALICE, replies: [] });
  });

  it('takes event_slug as a shortcut, parent types in any case, order and ascending', async () => {
    expect(idsOf((await h.get(`/comments?event_slug=${slugs.e1}`)).body)).toEqual([ids.c2, ids.c1]);
    expect(idsOf((await h.get(`/comments?event_slug=${slugs.e1}&ascending=true`)).body)).toEqual([ids.c1, ids.c2]);
    expect(idsOf((await h.get(`/comments?event_slug=${slugs.e1}&order=reactionCount`)).body)).toEqual([ids.c1, ids.c2]);
    expect(idsOf((await h.get(`/comments?parent_entity_type=market&parent_entity_id=${ids.m1}`)).body)).toEqual([ids.c4]);
    expect(idsOf((await h.get(`/comments?parent_entity_type=series&parent_entity_id=${ids.nba}`)).body)).toEqual([ids.c5]);
    expect((await h.get(`/comments?parent_entity_type=Event&parent_entity_id=${ids.e2}&event_slug=${slugs.e1}`)).body).toEqual([]);
  });

  it('without an entity lists every top-level comment, newest first, paged', async () => {
    expect(idsOf((await h.get('/comments')).body)).toEqual([ids.c5, ids.c4, ids.c2, ids.c1]);
    expect(idsOf((await h.get('/comments?limit=1&offset=1')).body)).toEqual([ids.c4]);
    expect((await h.get('/comments?limit=100000')).body).toHaveLength(4);
  });

  it('holders_only keeps nobody until someone holds a position', async () => {
    expect((await h.get(`/comments?event_slug=${slugs.e1}&holders_only=true`)).body).toEqual([]);
    expect((await h.get(`/comments?event_slug=${slugs.e1}&holders_only=false`)).body).toHaveLength(2);
  });

  it('answers a missing, bad or unknown entity with the contract errors', async () => {
    expect(await h.get('/comments?parent_entity_type=Event')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'parent_entity_id is required' } });
    expect(await h.get('/comments?parent_entity_id=1')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'parent_entity_type is required' } });
    expect(await h.get('/comments?parent_entity_type=Planet&parent_entity_id=1')).toMatchObject({ status: 400, body: { error: 'parent_entity_type must be one of Event, Series, market' } });
    expect(await h.get('/comments?parent_entity_type=Event&parent_entity_id=abc')).toMatchObject({ status: 400, body: { error: 'parent_entity_id must be a non-negative integer' } });
    expect(await h.get('/comments?parent_entity_type=Event&parent_entity_id=999999')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    expect(await h.get('/comments?event_slug=nope')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'slug not found' } });
    expect(await h.get('/comments?holders_only=perhaps')).toMatchObject({ status: 400, body: { error: 'holders_only must be true or false' } });
    expect(await h.get('/comments?order=likes')).toMatchObject({ status: 400, body: { error: 'order fields are not valid' } });
  });
});

describe('GET /comments/{id}', () => {
  it('lists the replies of a comment, oldest first, paged', async () => {
    const { body } = await h.get(`/comments/${ids.c1}`);
    expect(idsOf(body)).toEqual([ids.c3]);
    expect(body[0].replies).toEqual([]);
    expect((await h.get(`/comments/${ids.c1}?offset=1`)).body).toEqual([]);
    expect((await h.get(`/comments/${ids.c3}`)).body).toEqual([]);
    expect(await h.get('/comments/999999')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    expect(await h.get('/comments/x')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'id must be an integer' } });
    expect(await h.get(`/comments/${ids.c1}?limit=-2`)).toMatchObject({ status: 400, body: { error: 'limit must be a non-negative integer' } });
  });
});

describe('GET /public-profile', () => {
  it('finds a profile by proxy wallet or base address, in the contract shape', async () => {
    const { status, body } = await h.get(`/public-profile?address=${ALICE.toUpperCase().replace('0X', '0x')}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['createdAt', 'proxyWallet', 'profileImage', 'bio', 'pseudonym', 'name', 'xUsername', 'displayUsernamePublic', 'verifiedBadge', 'users']);
    expect(body).toMatchObject({ proxyWallet: ALICE, name: 'Alice Trader', pseudonym: 'Brave-Otter', displayUsernamePublic: true, verifiedBadge: false });
    expect((await h.get(`/public-profile?address=${ALICE_BASE}`)).body.proxyWallet).toBe(ALICE);
  });

  it('answers missing, malformed and unknown addresses', async () => {
    expect(await h.get('/public-profile')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'address is required' } });
    expect(await h.get('/public-profile?address=')).toMatchObject({ status: 400, body: { error: 'address is required' } });
    expect(await h.get('/public-profile?address=0x123')).toMatchObject({ status: 400, body: { type: 'bad request' } });
    expect(await h.get('/public-profile?address=0x0000000000000000000000000000000000000bad')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
  });
});

describe('GET /public-search', () => {
  it('finds events by their title or their markets’ questions, tags and profiles, grouped by kind', async () => {
    const election = await h.get('/public-search?q=Election');
    expect(election.status).toBe(200);
    expect(Object.keys(election.body)).toEqual(['events', 'tags', 'profiles', 'pagination']);
    expect(idsOf(election.body.events)).toEqual([ids.e1]);
    expect(election.body.pagination).toEqual({ hasMore: false, totalResults: 1 });
    const alice = (await h.get('/public-search?q=alice')).body;
    expect(idsOf(alice.events)).toEqual([ids.e1]);
    expect(alice.profiles.map((p: { proxyWallet: string }) => p.proxyWallet)).toEqual([ALICE]);
    expect(idsOf((await h.get('/public-search?q=polit')).body.tags)).toEqual([ids.Politics]);
  });

  it('needs every term, pages events and filters by status', async () => {
    expect((await h.get('/public-search?q=alice%20bitcoin')).body.events).toEqual([]);
    const paged = (await h.get('/public-search?q=e&limit_per_type=1')).body;
    expect(paged.events).toHaveLength(1);
    expect(paged.pagination.hasMore).toBe(true);
    const second = (await h.get('/public-search?q=e&limit_per_type=1&page=2')).body;
    expect(second.events[0].id).not.toBe(paged.events[0].id);
    expect(idsOf((await h.get('/public-search?q=bitcoin&events_status=closed')).body.events)).toEqual([ids.e3]);
    expect((await h.get('/public-search?q=bitcoin&events_status=active')).body.events).toEqual([]);
    expect((await h.get('/public-search?q=alice&search_profiles=false')).body.profiles).toEqual([]);
  });

  it('requires q and refuses bad values', async () => {
    expect(await h.get('/public-search')).toMatchObject({ status: 400, body: { type: 'bad request', error: 'q is required' } });
    expect(await h.get('/public-search?q=%20%20')).toMatchObject({ status: 400, body: { error: 'q is required' } });
    expect(await h.get(`/public-search?q=${'a'.repeat(300)}`)).toMatchObject({ status: 400, body: { type: 'bad request' } });
    expect(await h.get('/public-search?q=a&page=0')).toMatchObject({ status: 400, body: { error: 'page must be a positive integer' } });
    expect(await h.get('/public-search?q=a&events_status=open')).toMatchObject({ status: 400, body: { type: 'bad request' } });
  });
});

describe('the HTTP edge', () => {
  it('answers unknown paths and wrong methods in the typed shape', async () => {
    expect(await h.get('/nope')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'not found' } });
    expect(await h.send('DELETE', '/markets')).toMatchObject({ status: 405, body: { type: 'bad request', error: 'method not allowed' } });
  });
});

// Writes and freshness against a real server over real Postgres: the operator API (auth,
// validation, links to order-book markets), changes made by another process visible within
// 100 ms through NOTIFY, catching up after the LISTEN connection drops, POST /comments with
// level-2 auth and outcome prices from the clob (rate limits are the edge's). Holders and
// comment positions: catalog-holders.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type ListeningHttpServer, type Route } from '@pmx/http';
import { newApiCredentials, signL2 } from '@pmx/signing';
import { PriceFeed } from '../src/projection/price-feed.ts';
import { eventually } from '@pmx/testkit';
import { startCatalog, type CatalogHarness, type Reply } from '../src/testing/catalog-harness.ts';

let h: CatalogHarness;
let clob: ListeningHttpServer;
let clobPrices = new Map<string, [number, number]>();
let clobUp = true;
const author = { address: '0x00000000000000000000000000000000000000a1', ...newApiCredentials() };

/** A stand-in for the clob's market listing: two pages, prices from clobPrices. */
function startClobStub(): ListeningHttpServer {
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/markets',
      handler: (ctx) => {
        if (!clobUp) return { status: 503, body: { error: 'down' } };
        const all = [...clobPrices].map(([conditionId, [a, b]]) => ({
          condition_id: conditionId,
          tokens: [
            { token_id: 't0', price: a },
            { token_id: 't1', price: b },
          ],
        }));
        const first = ctx.query.get('next_cursor') === 'MA==';
        const half = Math.ceil(all.length / 2);
        return {
          body: {
            data: first ? all.slice(0, half) : all.slice(half),
            next_cursor: first ? 'MQ==' : 'LTE=',
            limit: 1000,
            count: 0,
          },
        };
      },
    },
  ];
  return createHttpServer({ routes, errorShape: 'simple' }).listen(0);
}

beforeAll(async () => {
  clob = startClobStub();
  h = await startCatalog({
    PMX_CATALOG_CLOB_URL: `http://127.0.0.1:${clob.port}`,
    PMX_CATALOG_PRICE_REFRESH_MS: '3600000',
  });
  await h.db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase)
                 VALUES (${author.apiKey}, ${author.address}, 0, ${author.secret}, ${author.passphrase})`;
});

afterAll(async () => {
  await h?.close();
  await clob?.close({ graceMs: 100 });
});

async function created(path: string, body: unknown): Promise<any> {
  const response = await h.operator('POST', path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Polls GET path until check passes and returns how long that took. */
async function msUntil(path: string, check: (reply: Reply) => boolean): Promise<number> {
  const started = performance.now();
  await eventually(
    async () => {
      if (!check(await h.get(path))) throw new Error(`${path} not updated yet`);
    },
    2000,
    path,
    2,
  );
  return performance.now() - started;
}

describe('operator API', () => {
  it('requires the operator bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${h.operatorKey}`]) {
      const reply = await h.send('POST', '/operator/tags', {
        body: '{"label":"X"}',
        headers: authorization ? { authorization } : {},
      });
      expect(reply).toMatchObject({
        status: 401,
        body: { type: 'bad request', error: expect.stringContaining('operator key') },
      });
    }
  });

  it('validates bodies: required fields, types, unknown fields, slugs and links', async () => {
    const cases: [string, unknown, string][] = [
      ['/operator/tags', {}, 'label is required'],
      ['/operator/tags', { label: 'A', colour: 'red' }, 'unknown field colour'],
      ['/operator/events', { title: 5 }, 'title must be a string of at most 20000 characters'],
      ['/operator/events', { title: 'E', slug: 'Not A Slug' }, 'slug must be lower-case letters, digits and dashes'],
      ['/operator/events', { title: 'E', endDate: 'tomorrow' }, 'endDate must be an ISO 8601 date-time'],
      // Postgres answers year 0 and 10000 with a 500, and gives years below 100 back as 19xx.
      ...['0000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z', '0050-06-01T00:00:00Z', '2024-02-30'].map(
        (endDate): [string, unknown, string] => [
          '/operator/events',
          { title: 'E', endDate },
          'endDate must be an ISO 8601 date-time',
        ],
      ),
      ['/operator/events', { title: 'E', tagIds: [1.5] }, 'tagIds must be an array of positive integer ids'],
      ['/operator/events', { title: 'E', tagIds: [987654] }, 'a linked id does not exist'],
      ['/operator/markets', { question: 'Q', volume: -1 }, 'volume must be a non-negative number'],
      // Number() would take these as 16, 1, 1000 and 5.
      ...['0x10', '0b1', '1e3', ' 5 '].map((volume): [string, unknown, string] => [
        '/operator/markets',
        { question: 'Q', volume },
        'volume must be a non-negative number',
      ]),
      ['/operator/markets', { question: 'Q', outcomes: ['Only'] }, 'outcomes must be 2 to 20 non-empty strings'],
      ['/operator/markets', { conditionId: `0x${'ab'.repeat(32)}` }, 'conditionId does not match an order-book market'],
      ['/operator/markets', { conditionId: 'nope' }, 'conditionId must be a 0x-prefixed hex condition id'],
      ['/operator/markets', {}, 'question is required'],
      ['/operator/series', [], 'the body must be a JSON object'],
    ];
    for (const [path, body, error] of cases) {
      const reply = await h.operator('POST', path, body);
      expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(reply.body.type).toBe('bad request');
      expect(reply.body.error).toContain(error);
    }
    expect(
      await h.send('POST', '/operator/tags', { body: '{bad', headers: { authorization: `Bearer ${h.operatorKey}` } }),
    ).toMatchObject({ status: 400, body: { error: 'invalid JSON body' } });
    // Each is a 400, never a 500: a required field missing beside a slug, a key that names an
    // Object.prototype member, a lone surrogate (jsonb refuses it).
    const raw: [string, string, string, string][] = [
      ['POST', '/operator/tags', '{"slug":"no-label"}', 'label is required'],
      ['POST', '/operator/series', '{"slug":"no-title"}', 'title is required'],
      ['POST', '/operator/events', '{"slug":"no-title-e"}', 'title is required'],
      ['POST', '/operator/markets', '{"slug":"no-question"}', 'question is required'],
      ['POST', '/operator/tags', '{"label":"x","__proto__":1}', 'unknown field __proto__'],
      ['POST', '/operator/tags', '{"label":"y","constructor":1}', 'unknown field constructor'],
      ['POST', '/operator/series', '{"title":"z","toString":"a"}', 'unknown field toString'],
      [
        'PUT',
        '/operator/profiles/0x00000000000000000000000000000000000000b2',
        '{"name":"n","hasOwnProperty":true}',
        'unknown field hasOwnProperty',
      ],
      ['POST', '/operator/events', '{"title":"m","eventMetadata":{"a":"\\ud800"}}', 'surrogate pair'],
      ['POST', '/operator/events', '{"title":"m2","eventMetadata":{"\\udfff":1}}', 'surrogate pair'],
    ];
    for (const [method, path, body, error] of raw) {
      const reply = await h.send(method, path, {
        body,
        headers: { authorization: `Bearer ${h.operatorKey}`, 'content-type': 'application/json' },
      });
      expect([path, body, reply.status, reply.body.type, reply.body.error]).toEqual([
        path,
        body,
        400,
        'bad request',
        expect.stringContaining(error),
      ]);
    }
    // A pair, escaped or not, is text like any other.
    const pairs = await h.send('POST', '/operator/events', {
      body: '{"title":"Pairs \\ud83d\\ude00 😀","eventMetadata":{"note":"\\uD83D\\uDE00"}}',
      headers: { authorization: `Bearer ${h.operatorKey}`, 'content-type': 'application/json' },
    });
    expect([pairs.status, pairs.body.title]).toEqual([201, 'Pairs 😀 😀']);
  });

  it('refuses a duplicate slug and a second catalog market for one condition id', async () => {
    await created('/operator/tags', { label: 'Duplicate me' });
    expect(await h.operator('POST', '/operator/tags', { label: 'Duplicate me' })).toMatchObject({
      status: 400,
      body: { error: 'slug already exists' },
    });
    const book = await h.orderBookMarket();
    await created('/operator/markets', { conditionId: book.conditionId });
    expect(
      await h.operator('POST', '/operator/markets', { conditionId: book.conditionId, slug: 'another-slug' }),
    ).toMatchObject({ status: 400, body: { error: 'conditionId already exists' } });
  });

  it('links a market created with a condition id to its order-book market (tokens, outcomes, tick, defaults)', async () => {
    const book = await h.orderBookMarket({
      question: 'Will the linked market work?',
      outcomes: ['Up', 'Down'],
      tickSize: '0.001',
    });
    const market = await created('/operator/markets', {
      conditionId: book.conditionId.toUpperCase().replace('0X', '0x'),
    });
    expect(market).toMatchObject({
      conditionId: book.conditionId,
      question: 'Will the linked market work?',
      outcomes: '["Up","Down"]',
      clobTokenIds: JSON.stringify(book.tokens),
      orderPriceMinTickSize: 0.001,
      orderMinSize: 5,
      enableOrderBook: true,
      acceptingOrders: true,
      events: [],
    });
    expect(market.slug).toMatch(/^order-book-market-/);
    // An order-book slug the catalog would refuse (the order book takes any text): the question's instead.
    const odd = await h.orderBookMarket({ question: 'BTC up or down in 5 minutes?', slug: 'BTC Up/Down, 5m' });
    expect((await created('/operator/markets', { conditionId: odd.conditionId })).slug).toBe(
      'btc-up-or-down-in-5-minutes',
    );
    // A market the order book takes no orders for (cancel-only) says so, as Gamma UIs check.
    const paused = await h.orderBookMarket({ question: 'Paused?' });
    await h.db.sql`UPDATE markets SET accepting_orders = false WHERE condition_id = ${paused.conditionId}`;
    expect(await created('/operator/markets', { conditionId: paused.conditionId })).toMatchObject({
      enableOrderBook: true,
      acceptingOrders: false,
    });
  });

  it('updates entities and their links, answering with the new state; unknown ids are not found', async () => {
    const tag = await created('/operator/tags', { label: 'Weather' });
    const event = await created('/operator/events', { title: 'Rain in Paris?' });
    const market = await created('/operator/markets', {
      question: 'Rain in Paris on Friday?',
      eventIds: [Number(event.id)],
    });
    const updated = await h.operator('PATCH', `/operator/events/${event.id}`, {
      title: 'Rain in Paris this week?',
      tagIds: [Number(tag.id)],
      closed: true,
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { title: 'Rain in Paris this week?', closed: true, closedTime: expect.any(String), tags: [{ id: tag.id }] },
    });
    expect((await h.get(`/markets/${market.id}`)).body.events[0].title).toBe('Rain in Paris this week?');
    expect((await h.operator('PATCH', `/operator/markets/${market.id}`, { eventIds: [] })).body.events).toEqual([]);
    expect((await h.get(`/events/${event.id}`)).body.markets).toEqual([]);
    const reopened = await h.operator('PATCH', `/operator/events/${event.id}`, { closed: false });
    expect(reopened.body).not.toHaveProperty('closedTime');
    expect(await h.operator('PATCH', '/operator/events/999999', { title: 'x' })).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(await h.operator('PATCH', '/operator/tags/abc', { label: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'id must be an integer' },
    });
    // Create refuses a blank title; so does an update (it does not take "  ").
    expect(await h.operator('PATCH', `/operator/events/${event.id}`, { title: '  ' })).toMatchObject({
      status: 400,
      body: { error: 'title must not be empty' },
    });
    // Past Postgres's bigint: not found, never a 500.
    expect(await h.operator('PATCH', '/operator/events/99999999999999999999', { title: 'x' })).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
  });

  it('creates and updates profiles by address', async () => {
    const address = '0x00000000000000000000000000000000000000b2';
    expect(await h.operator('PUT', `/operator/profiles/${address}`, { name: 'Bea', bio: 'Hi' })).toMatchObject({
      status: 200,
      body: { proxyWallet: address, name: 'Bea', bio: 'Hi' },
    });
    expect(await h.operator('PUT', `/operator/profiles/${address}`, { verifiedBadge: true })).toMatchObject({
      body: { name: 'Bea', verifiedBadge: true },
    });
    expect(await h.operator('PUT', '/operator/profiles/0x12', {})).toMatchObject({ status: 400 });
  });
});

describe('freshness', () => {
  it('shows writes made by another process within 100 ms, without a restart', async () => {
    const event = await created('/operator/events', { title: 'Freshness event' });
    const market = await created('/operator/markets', { question: 'Fresh?', eventIds: [Number(event.id)] });
    const sql = h.db.sql;

    // Served once (and so in the response cache) before the change.
    expect((await h.get(`/markets?id=${market.id}`)).body[0].question).toBe('Fresh?');
    await sql`UPDATE catalog_markets SET question = 'Fresher?', volume = 77 WHERE id = ${market.id}`;
    expect(
      await msUntil(`/markets/${market.id}`, (r) => r.body.question === 'Fresher?' && r.body.volumeNum === 77),
    ).toBeLessThan(100);
    expect(await msUntil(`/markets?id=${market.id}`, (r) => r.body[0]?.question === 'Fresher?')).toBeLessThan(100);
    expect(
      await msUntil(`/events/${event.id}`, (r) => r.body.markets[0]?.question === 'Fresher?' && r.body.volume === 77),
    ).toBeLessThan(100);

    const [tag] = await sql`INSERT INTO catalog_tags (label, slug) VALUES ('Fresh tag', 'fresh-tag') RETURNING id`;
    await sql`INSERT INTO catalog_event_tags (event_id, tag_id) VALUES (${event.id}, ${tag!.id})`;
    expect(
      await msUntil('/markets?tag=fresh-tag', (r) => r.body.length === 1 && r.body[0].id === market.id),
    ).toBeLessThan(100);

    await sql`UPDATE catalog_tags SET label = 'Renamed tag' WHERE id = ${tag!.id}`;
    expect(await msUntil(`/events/${event.id}`, (r) => r.body.tags[0]?.label === 'Renamed tag')).toBeLessThan(100);

    await sql`DELETE FROM catalog_markets WHERE id = ${market.id}`;
    expect(await msUntil(`/markets/${market.id}`, (r) => r.status === 404)).toBeLessThan(100);
    expect((await h.get(`/events/${event.id}`)).body.markets).toEqual([]);
  });

  it('catches up on changes made while its LISTEN connection was down', async () => {
    const tag = await created('/operator/tags', { label: 'Before the cut' });
    const cut = await h.db
      .sql`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen%'`;
    expect(cut.map((row) => row.done)).toEqual([true]);
    await h.db.sql`UPDATE catalog_tags SET label = 'After the cut' WHERE id = ${tag.id}`;
    await eventually(async () => expect((await h.get(`/tags/${tag.id}`)).body.label).toBe('After the cut'), 5000);
    await h.db.sql`UPDATE catalog_tags SET label = 'Listening again' WHERE id = ${tag.id}`;
    await eventually(async () => expect((await h.get(`/tags/${tag.id}`)).body.label).toBe('Listening again'), 2000);
  });
});

describe('POST /comments', () => {
  let event: { id: string; slug: string };

  beforeAll(async () => {
    event = await created('/operator/events', { title: 'Commentable event' });
  });

  /** The contract's SVC_X names, sent as SVC-X: the catalog's direct port (uWS drops '_' names). */
  function signed(body: string, overrides: Record<string, string> = {}, timestamp = Math.floor(Date.now() / 1000)) {
    const headers = {
      'content-type': 'application/json',
      SVC_ADDRESS: author.address,
      SVC_API_KEY: author.apiKey,
      SVC_PASSPHRASE: author.passphrase,
      SVC_TIMESTAMP: String(timestamp),
      SVC_SIGNATURE: signL2(author.secret, timestamp, 'POST', '/comments', body),
      ...overrides,
    };
    return { body, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.replaceAll('_', '-'), v])) };
  }
  const post = (payload: unknown, overrides?: Record<string, string>) =>
    h.send('POST', '/comments', signed(JSON.stringify(payload), overrides));

  it('stores a comment from a level-2 authenticated author and shows it at once', async () => {
    const reply = await post({ body: 'First!', parentEntityType: 'Event', parentEntityID: Number(event.id) });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      body: 'First!',
      parentEntityType: 'Event',
      parentEntityID: Number(event.id),
      parentCommentID: '',
      userAddress: author.address,
      replies: [],
    });
    expect((await h.get(`/comments?event_slug=${event.slug}`)).body.map((c: { id: string }) => c.id)).toEqual([
      reply.body.id,
    ]);
    // A first-time author gets a profile.
    expect((await h.get(`/public-profile?address=${author.address}`)).body).toMatchObject({
      proxyWallet: author.address,
      pseudonym: 'trader-000000',
    });
  });

  it('a first comment from an address whose profile the operator set up under a proxy wallet uses that profile', async () => {
    const signer = { address: '0x00000000000000000000000000000000000000a2', ...newApiCredentials() };
    await h.db
      .sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${signer.apiKey}, ${signer.address}, 0, ${signer.secret}, ${signer.passphrase})`;
    const proxy = '0x00000000000000000000000000000000000000c2';
    expect(
      (await h.operator('PUT', `/operator/profiles/${proxy}`, { name: 'Cleo', baseAddress: signer.address })).status,
    ).toBe(200);
    const body = JSON.stringify({ body: 'Hello', parentEntityType: 'Event', parentEntityID: Number(event.id) });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'SVC-ADDRESS': signer.address,
      'SVC-API-KEY': signer.apiKey,
      'SVC-PASSPHRASE': signer.passphrase,
      'SVC-TIMESTAMP': String(timestamp),
      'SVC-SIGNATURE': signL2(signer.secret, timestamp, 'POST', '/comments', body),
    };
    expect((await h.send('POST', '/comments', { body, headers })).status).toBe(201);
    // No bare second profile that would shadow Cleo's.
    expect((await h.get(`/public-profile?address=${signer.address}`)).body).toMatchObject({
      proxyWallet: proxy,
      name: 'Cleo',
    });
    expect(await h.db.sql`SELECT proxy_wallet FROM catalog_profiles WHERE base_address = ${signer.address}`).toEqual([
      { proxy_wallet: proxy },
    ]);
  });

  it('threads replies one level deep: a reply to a reply joins the top-level comment', async () => {
    const top = (await post({ body: 'Top', parentEntityType: 'event', parentEntityID: event.id })).body;
    const reply = (
      await post({
        body: 'Reply',
        parentEntityType: 'Event',
        parentEntityID: Number(event.id),
        parentCommentID: top.id,
      })
    ).body;
    const nested = (
      await post({
        body: 'Reply to reply',
        parentEntityType: 'Event',
        parentEntityID: Number(event.id),
        parentCommentID: Number(reply.id),
      })
    ).body;
    expect(nested).toMatchObject({ parentCommentID: top.id, replyAddress: author.address });
    expect((await h.get(`/comments/${top.id}`)).body.map((c: { id: string }) => c.id)).toEqual([reply.id, nested.id]);
    const thread = (await h.get(`/comments?event_slug=${event.slug}`)).body.find(
      (c: { id: string }) => c.id === top.id,
    );
    expect(thread).toMatchObject({
      replyCount: 2,
      replies: [
        { id: reply.id, replies: [] },
        { id: nested.id, replies: [] },
      ],
    });
  });

  it('refuses bad bodies and unknown parents', async () => {
    const id = Number(event.id);
    expect(await post({ parentEntityType: 'Event', parentEntityID: id })).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'body is required' },
    });
    expect(await post({ body: 'x'.repeat(2001), parentEntityType: 'Event', parentEntityID: id })).toMatchObject({
      status: 400,
      body: { error: 'body is too long (at most 2000 characters)' },
    });
    // Characters, not UTF-16 units: 1,500 emoji are 1,500 characters.
    expect(await post({ body: '\u{1F600}'.repeat(1500), parentEntityType: 'Event', parentEntityID: id })).toMatchObject(
      { status: 201 },
    );
    expect(await post({ body: '\u{1F600}'.repeat(2001), parentEntityType: 'Event', parentEntityID: id })).toMatchObject(
      { status: 400 },
    );
    // Was a 500 from Postgres, on a public route.
    expect(await post({ body: 'hi\u0000', parentEntityType: 'Event', parentEntityID: id })).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'the JSON body must not contain NUL characters (\\u0000)' },
    });
    expect(await post({ body: 'x', parentEntityID: id })).toMatchObject({
      status: 400,
      body: { error: 'parentEntityType is required' },
    });
    expect(await post({ body: 'x', parentEntityType: 'Event' })).toMatchObject({
      status: 400,
      body: { error: 'parentEntityID is required' },
    });
    expect(await post({ body: 'x', parentEntityType: 'Planet', parentEntityID: id })).toMatchObject({ status: 400 });
    expect(await post({ body: 'x', parentEntityType: 'Event', parentEntityID: -3 })).toMatchObject({
      status: 400,
      body: { error: 'parentEntityID must be a positive integer' },
    });
    expect(await post({ body: 'x', parentEntityType: 'Event', parentEntityID: id, extra: 1 })).toMatchObject({
      status: 400,
      body: { error: 'unknown field extra' },
    });
    expect(await post({ body: 'x', parentEntityType: 'Event', parentEntityID: 999999 })).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(
      await post({ body: 'x', parentEntityType: 'Event', parentEntityID: id, parentCommentID: 999999 }),
    ).toMatchObject({ status: 404, body: { error: 'id not found' } });
    const other = await created('/operator/events', { title: 'Another event' });
    const foreign = (await post({ body: 'elsewhere', parentEntityType: 'Event', parentEntityID: Number(other.id) }))
      .body;
    expect(
      await post({ body: 'x', parentEntityType: 'Event', parentEntityID: id, parentCommentID: foreign.id }),
    ).toMatchObject({ status: 400, body: { error: 'parentCommentID belongs to another entity' } });
  });

  it('refuses missing or wrong credentials with 401', async () => {
    const payload = JSON.stringify({ body: 'x', parentEntityType: 'Event', parentEntityID: Number(event.id) });
    expect(
      (await h.send('POST', '/comments', { body: payload, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(401);
    expect((await h.send('POST', '/comments', signed(payload, { 'SVC-SIGNATURE': 'a'.repeat(64) }))).status).toBe(401);
    expect((await h.send('POST', '/comments', signed(payload, { 'SVC-PASSPHRASE': 'nope' }))).status).toBe(401);
    expect(
      (await h.send('POST', '/comments', signed(payload, { 'SVC-API-KEY': newApiCredentials().apiKey }))).status,
    ).toBe(401);
    expect((await h.send('POST', '/comments', signed(payload, {}, Math.floor(Date.now() / 1000) - 3600))).status).toBe(
      401,
    );
    const tampered = signed(payload);
    expect((await h.send('POST', '/comments', { ...tampered, body: payload.replace('"x"', '"y"') })).status).toBe(401);
  });
});

describe('outcome prices', () => {
  it('shows the clob’s prices after a bulk refresh, in markets and events, and keeps them while the clob is down', async () => {
    const book = await h.orderBookMarket();
    const event = await created('/operator/events', { title: 'Priced event' });
    const market = await created('/operator/markets', { conditionId: book.conditionId, eventIds: [Number(event.id)] });
    expect(market.outcomePrices).toBe('["0.5","0.5"]');
    clobPrices = new Map([
      [book.conditionId, [0.42, 0.58]],
      [`0x${'cd'.repeat(32)}`, [0.1, 0.9]],
    ]);
    await h.app.prices.refresh();
    expect((await h.get(`/markets/${market.id}`)).body.outcomePrices).toBe('["0.42","0.58"]');
    expect((await h.get(`/events/${event.id}`)).body.markets[0].outcomePrices).toBe('["0.42","0.58"]');
    expect((await h.get(`/markets?id=${market.id}`)).body[0].outcomePrices).toBe('["0.42","0.58"]');
    clobUp = false;
    await h.app.prices.refresh();
    expect((await h.get(`/markets/${market.id}`)).body.outcomePrices).toBe('["0.42","0.58"]');
    clobUp = true;
  });

  it('logs the wait for a clob not yet up as a wait, and an outage after it answered as one', async () => {
    const lines: string[] = [];
    const feed = new PriceFeed(h.app.projection, {
      clobUrl: `http://127.0.0.1:${clob.port}`,
      intervalMs: 0,
      log: (line) => lines.push(line),
    });
    try {
      for (const up of [false, false, true, false, false, true]) {
        clobUp = up;
        await feed.refresh();
      }
    } finally {
      clobUp = true;
    }
    expect(lines.map((line) => line.replace(/ \(.*\)/, ''))).toEqual([
      `outcome prices: waiting for the clob at http://127.0.0.1:${clob.port}; markets show an equal split until it answers`,
      'outcome prices: the clob answers',
      `outcome prices: the clob at http://127.0.0.1:${clob.port} is not answering; keeping the last prices`,
      'outcome prices: the clob answers again',
    ]);
  });
});

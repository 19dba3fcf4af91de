// Catalog reads of comments, replies, profiles and search, and the HTTP edge, against a real
// server over real Postgres: shapes, filters, holders, and the contract's typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogHarness } from '../src/testing/catalog-harness.ts';
import { ALICE, ALICE_BASE, idsOf, seedReadCatalog, type ReadFixture } from '../src/testing/read-fixture.ts';

let h: CatalogHarness;
let ids: ReadFixture['ids'];
let slugs: ReadFixture['slugs'];

beforeAll(async () => {
  ({ h, ids, slugs } = await seedReadCatalog());
});

afterAll(async () => {
  await h?.close();
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
    expect(idsOf((await h.get(`/comments?parent_entity_type=market&parent_entity_id=${ids.m1}`)).body)).toEqual([
      ids.c4,
    ]);
    expect(idsOf((await h.get(`/comments?parent_entity_type=series&parent_entity_id=${ids.nba}`)).body)).toEqual([
      ids.c5,
    ]);
    expect(
      (await h.get(`/comments?parent_entity_type=Event&parent_entity_id=${ids.e2}&event_slug=${slugs.e1}`)).body,
    ).toEqual([]);
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
    expect(await h.get('/comments?parent_entity_type=Event')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'parent_entity_id is required' },
    });
    expect(await h.get('/comments?parent_entity_id=1')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'parent_entity_type is required' },
    });
    expect(await h.get('/comments?parent_entity_type=Planet&parent_entity_id=1')).toMatchObject({
      status: 400,
      body: { error: 'parent_entity_type must be one of Event, Series, market' },
    });
    expect(await h.get('/comments?parent_entity_type=Event&parent_entity_id=abc')).toMatchObject({
      status: 400,
      body: { error: 'parent_entity_id must be a non-negative integer' },
    });
    expect(await h.get('/comments?parent_entity_type=Event&parent_entity_id=999999')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(await h.get('/comments?event_slug=nope')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    });
    expect(await h.get('/comments?holders_only=perhaps')).toMatchObject({
      status: 400,
      body: { error: 'holders_only must be true or false' },
    });
    expect(await h.get('/comments?order=likes')).toMatchObject({
      status: 400,
      body: { error: 'order fields are not valid' },
    });
  });
});

describe('GET /comments/{id}', () => {
  it('lists the replies of a comment, oldest first, paged', async () => {
    const { body } = await h.get(`/comments/${ids.c1}`);
    expect(idsOf(body)).toEqual([ids.c3]);
    expect(body[0].replies).toEqual([]);
    expect((await h.get(`/comments/${ids.c1}?offset=1`)).body).toEqual([]);
    expect((await h.get(`/comments/${ids.c3}`)).body).toEqual([]);
    expect(await h.get('/comments/999999')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(await h.get('/comments/x')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'id must be an integer' },
    });
    expect(await h.get(`/comments/${ids.c1}?limit=-2`)).toMatchObject({
      status: 400,
      body: { error: 'limit must be a non-negative integer' },
    });
  });
});

describe('GET /public-profile', () => {
  it('finds a profile by proxy wallet or base address, in the contract shape', async () => {
    const { status, body } = await h.get(`/public-profile?address=${ALICE.toUpperCase().replace('0X', '0x')}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([
      'createdAt',
      'proxyWallet',
      'profileImage',
      'bio',
      'pseudonym',
      'name',
      'xUsername',
      'displayUsernamePublic',
      'verifiedBadge',
      'users',
    ]);
    expect(body).toMatchObject({
      proxyWallet: ALICE,
      name: 'Alice Trader',
      pseudonym: 'Brave-Otter',
      displayUsernamePublic: true,
      verifiedBadge: false,
    });
    expect((await h.get(`/public-profile?address=${ALICE_BASE}`)).body.proxyWallet).toBe(ALICE);
  });

  it('answers missing, malformed and unknown addresses', async () => {
    expect(await h.get('/public-profile')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'address is required' },
    });
    expect(await h.get('/public-profile?address=')).toMatchObject({
      status: 400,
      body: { error: 'address is required' },
    });
    expect(await h.get('/public-profile?address=0x123')).toMatchObject({ status: 400, body: { type: 'bad request' } });
    expect(await h.get('/public-profile?address=0x0000000000000000000000000000000000000bad')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
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
    // 0 per type answered hasMore on every page.
    expect(await h.get('/public-search?q=e&limit_per_type=0')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'limit_per_type must be a positive integer' },
    });
    expect(idsOf((await h.get('/public-search?q=bitcoin&events_status=closed')).body.events)).toEqual([ids.e3]);
    expect((await h.get('/public-search?q=bitcoin&events_status=active')).body.events).toEqual([]);
    expect((await h.get('/public-search?q=alice&search_profiles=false')).body.profiles).toEqual([]);
  });

  it('requires q and refuses bad values', async () => {
    expect(await h.get('/public-search')).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'q is required' },
    });
    expect(await h.get('/public-search?q=%20%20')).toMatchObject({ status: 400, body: { error: 'q is required' } });
    expect(await h.get(`/public-search?q=${'a'.repeat(300)}`)).toMatchObject({
      status: 400,
      body: { type: 'bad request' },
    });
    expect(await h.get('/public-search?q=a&page=0')).toMatchObject({
      status: 400,
      body: { error: 'page must be a positive integer' },
    });
    expect(await h.get('/public-search?q=a&events_status=open')).toMatchObject({
      status: 400,
      body: { type: 'bad request' },
    });
  });
});

describe('the HTTP edge', () => {
  it('answers unknown paths and wrong methods in the typed shape', async () => {
    expect(await h.get('/nope')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'not found' } });
    expect(await h.send('DELETE', '/markets')).toMatchObject({
      status: 405,
      body: { type: 'bad request', error: 'method not allowed' },
    });
  });
});

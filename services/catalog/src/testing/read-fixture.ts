// Test-only: the small hand-built catalog the read tests share, created through the operator API
// (comments straight in SQL, so they reach the projection through NOTIFY).
import { expect } from 'vitest';
import { eventually } from '@pmx/testkit';
import { startCatalog, type CatalogHarness } from './catalog-harness.ts';

export const ALICE = '0x00000000000000000000000000000000000a11ce';
export const ALICE_BASE = '0x00000000000000000000000000000000000ba5e0';
export const CAROL = '0x0000000000000000000000000000000000000ca2';

export interface ReadFixture {
  h: CatalogHarness;
  ids: Record<string, string>;
  slugs: Record<string, string>;
  ob: Record<string, { conditionId: string; tokens: [string, string] }>;
}

export const idsOf = (body: { id: string }[]) => body.map((item) => item.id);

export async function seedReadCatalog(): Promise<ReadFixture> {
  const h = await startCatalog();
  const ids: Record<string, string> = {};
  const slugs: Record<string, string> = {};
  const ob: ReadFixture['ob'] = {};
  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await h.operator('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  ob.m1 = await h.orderBookMarket();
  ob.m2 = await h.orderBookMarket();
  ob.m3 = await h.orderBookMarket({ outcomes: ['Lakers', 'Celtics'], tickSize: '0.001' });
  ob.m5 = await h.orderBookMarket();

  for (const label of ['Politics', 'Sports', 'Crypto', 'Science'])
    ids[label] = (await create('/operator/tags', { label })).id;
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
  const e2 = await create('/operator/events', {
    title: 'Lakers vs. Celtics',
    tagIds: [Number(ids.Sports)],
    seriesIds: [Number(ids.nba)],
    endDate: '2026-02-01T00:00:00Z',
  });
  const e3 = await create('/operator/events', {
    title: 'Bitcoin above 100k by June?',
    tagIds: [Number(ids.Crypto)],
    creator: 'Site-A',
    closed: true,
  });
  const e4 = await create('/operator/events', { title: 'Old archived event', archived: true, active: false });
  Object.assign(ids, { e1: e1.id, e2: e2.id, e3: e3.id, e4: e4.id });
  Object.assign(slugs, { e1: e1.slug, e2: e2.slug });

  const m1 = await create('/operator/markets', {
    conditionId: ob.m1!.conditionId,
    question: 'Will Alice win the 2028 election?',
    eventIds: [Number(ids.e1)],
    volume: 1000,
    volume24hr: 50,
    liquidity: 300,
    competitive: 0.9,
  });
  const m2 = await create('/operator/markets', {
    conditionId: ob.m2!.conditionId,
    question: 'Will Bob win the 2028 election?',
    eventIds: [Number(ids.e1)],
    volume: '5000',
    volume24hr: 10,
    liquidity: 100,
  });
  const m3 = await create('/operator/markets', {
    conditionId: ob.m3!.conditionId,
    eventIds: [Number(ids.e2)],
    volume: 300,
    volume24hr: 300,
    tagIds: [Number(ids.Science)],
  });
  const m4 = await create('/operator/markets', {
    question: 'Bitcoin above $100k by June?',
    outcomes: ['Up', 'Down'],
    eventIds: [Number(ids.e3)],
    creator: 'site-a',
    closed: true,
    volume: 20000,
  });
  const m5 = await create('/operator/markets', {
    conditionId: ob.m5!.conditionId,
    question: 'Standalone market?',
    archived: true,
  });
  Object.assign(ids, { m1: m1.id, m2: m2.id, m3: m3.id, m4: m4.id, m5: m5.id });
  Object.assign(slugs, { m1: m1.slug, m3: m3.slug });

  expect(
    (
      await h.operator('PUT', `/operator/profiles/${ALICE}`, {
        name: 'Alice Trader',
        pseudonym: 'Brave-Otter',
        baseAddress: ALICE_BASE,
        displayUsernamePublic: true,
      })
    ).status,
  ).toBe(200);
  expect((await h.operator('PUT', `/operator/profiles/${CAROL}`, { pseudonym: 'Quiet-Lynx' })).status).toBe(200);

  // Comments arrive through NOTIFY only: written by "another process".
  const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 12, minute));
  const [c1] = await h.db
    .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, reaction_count, created_at, updated_at)
    VALUES ('Alice is underpriced', 'Event', ${ids.e1!}, ${ALICE}, 5, ${at(1)}, ${at(1)}) RETURNING id`;
  const [c2] = await h.db
    .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, reaction_count, created_at, updated_at)
    VALUES ('No way', 'Event', ${ids.e1!}, ${CAROL}, 1, ${at(2)}, ${at(2)}) RETURNING id`;
  const [c3] = await h.db
    .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, parent_comment_id, user_address, reply_address, created_at, updated_at)
    VALUES ('Source?', 'Event', ${ids.e1!}, ${c1!.id}, ${CAROL}, ${ALICE}, ${at(3)}, ${at(3)}) RETURNING id`;
  const [c4] = await h.db
    .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, created_at, updated_at)
    VALUES ('Market comment', 'market', ${ids.m1!}, ${ALICE}, ${at(4)}, ${at(4)}) RETURNING id`;
  const [c5] = await h.db
    .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address, created_at, updated_at)
    VALUES ('Series comment', 'Series', ${ids.nba!}, ${CAROL}, ${at(5)}, ${at(5)}) RETURNING id`;
  Object.assign(ids, {
    c1: String(c1!.id),
    c2: String(c2!.id),
    c3: String(c3!.id),
    c4: String(c4!.id),
    c5: String(c5!.id),
  });
  await eventually(async () => expect((await h.get(`/comments/${ids.c1}`)).body).toHaveLength(1));
  return { h, ids, slugs, ob };
}

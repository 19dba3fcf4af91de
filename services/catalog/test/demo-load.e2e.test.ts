// The demo loader against a running catalog over real Postgres: it creates the order-book
// markets the clob trades and the catalog linked to them, a running catalog picks the whole load
// up through one reload notification, and a second load changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCatalog } from '../src/demo/demo-catalog.ts';
import { loadDemoCatalog } from '../src/demo/demo-loader.ts';
import { eventually } from '@pmx/testkit';
import { startCatalog, type CatalogHarness } from '../src/testing/catalog-harness.ts';

let h: CatalogHarness;
const demo = generateDemoCatalog({ seed: 42, scale: 0.05 });

beforeAll(async () => {
  h = await startCatalog();
  // Something the operator made before the demo: ids and slugs must not collide.
  expect((await h.operator('POST', '/operator/tags', { label: 'Politics' })).status).toBe(201);
  expect((await h.operator('POST', '/operator/events', { title: 'Pre-existing event' })).status).toBe(201);
});

afterAll(async () => {
  await h?.close();
});

describe('demo data', () => {
  it('loads into a running catalog, which reloads once and serves it', async () => {
    const result = await loadDemoCatalog(h.db.sql, demo);
    expect(result.loaded).toBe(true);
    await eventually(async () =>
      expect((await h.get('/')).body).toMatchObject({
        events: demo.events.length + 1,
        markets: demo.markets.length,
        comments: demo.comments.length,
      }),
    );
    expect((await h.get('/tags?limit=100')).body).toHaveLength(100);
    expect((await h.get('/tags/slug/politics')).body.label).toBe('Politics');
  });

  it('creates the matching order-book markets, linked by condition id', async () => {
    const [{ count }] = (await h.db.sql`SELECT count(*)::int AS count FROM markets`) as unknown as [{ count: number }];
    expect(count).toBe(demo.markets.length);
    const sample = demo.markets[3]!;
    const [row] = await h.db
      .sql`SELECT token0, token1, tick_size, min_order_size FROM markets WHERE condition_id = ${sample.conditionId}`;
    expect(row).toMatchObject({
      token0: sample.tokens[0],
      token1: sample.tokens[1],
      tick_size: sample.tickSize,
      min_order_size: '5000000',
    });
    const market = (await h.get(`/markets/${sample.conditionId}`)).body;
    expect(market).toMatchObject({
      conditionId: sample.conditionId,
      question: sample.question,
      clobTokenIds: JSON.stringify(sample.tokens),
    });
    expect(market.events[0].title).toBe(demo.events.find((e) => e.id === sample.eventId)!.title);
  });

  it('serves filtered, sorted lists and search over it', async () => {
    const open = (await h.get('/markets?active=true&closed=false&order=volume24hr&limit=20')).body;
    expect(open).toHaveLength(20);
    const volumes = open.map((m: { volume24hr: number }) => m.volume24hr);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect(open.every((m: { closed: boolean }) => !m.closed)).toBe(true);
    const search = (await h.get('/public-search?q=price')).body;
    expect(search.pagination.totalResults).toBeGreaterThan(0);
    const comments = (await h.get('/comments?limit=5')).body;
    expect(comments).toHaveLength(5);
  });

  it('is idempotent', async () => {
    expect((await loadDemoCatalog(h.db.sql, demo)).loaded).toBe(false);
    const [{ count }] = (await h.db.sql`SELECT count(*)::int AS count FROM catalog_events`) as unknown as [
      { count: number },
    ];
    expect(count).toBe(demo.events.length + 1);
  });
});

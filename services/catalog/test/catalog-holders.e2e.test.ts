// Holders and comment positions against a real server over real Postgres: holders_only keeps
// the comments of holders of the entity's markets, and comment profiles carry their positions in
// those markets (from the ledger's positions table), each once, as the entity's links are now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pmx/testkit';
import { startCatalog, type CatalogHarness } from '../src/testing/catalog-harness.ts';

let h: CatalogHarness;

beforeAll(async () => {
  // No outcome prices here: the feed is off.
  h = await startCatalog({ PMX_CATALOG_PRICE_REFRESH_MS: '0' });
});

afterAll(async () => {
  await h?.close();
});

async function created(path: string, body: unknown): Promise<any> {
  const response = await h.operator('POST', path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('holders and positions', () => {
  it('lists a position once on a series comment whose market sits in two of its events', async () => {
    const book = await h.orderBookMarket();
    const [e1, e2] = [
      await created('/operator/events', { title: 'Twice A' }),
      await created('/operator/events', { title: 'Twice B' }),
    ];
    await created('/operator/markets', { conditionId: book.conditionId, eventIds: [Number(e1.id), Number(e2.id)] });
    const series = await created('/operator/series', { title: 'Twice S', eventIds: [Number(e1.id), Number(e2.id)] });
    const holder = '0x00000000000000000000000000000000000000c7';
    await h.db
      .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address) VALUES ('twice', 'Series', ${series.id}, ${holder})`;
    await h.db
      .sql`INSERT INTO positions (address, asset, market, token, size) VALUES (${holder}, ${book.tokens[0]}, ${book.conditionId}, 0, 5000000)`;
    await eventually(async () =>
      expect((await h.get(`/comments?parent_entity_type=Series&parent_entity_id=${series.id}`)).body).toHaveLength(1),
    );
    await h.app.positions.refresh();
    const [comment] = (
      await h.get(`/comments?parent_entity_type=Series&parent_entity_id=${series.id}&holders_only=true`)
    ).body;
    // Once, though its market sits in two of the series' events.
    expect(comment.profile.positions).toEqual([{ tokenId: book.tokens[0], positionSize: '5000000' }]);
  });

  it("shows a comment's positions in the markets its event has now, as links come and go", async () => {
    const [held, other] = [await h.orderBookMarket(), await h.orderBookMarket()];
    const event = await created('/operator/events', { title: 'Relinked event' });
    const series = await created('/operator/series', { title: 'Relinked series', eventIds: [Number(event.id)] });
    const m1 = await created('/operator/markets', { conditionId: other.conditionId, eventIds: [Number(event.id)] });
    const m2 = await created('/operator/markets', { conditionId: held.conditionId });
    const holder = '0x00000000000000000000000000000000000000c8';
    for (const [type, id] of [
      ['Event', event.id],
      ['Series', series.id],
    ]) {
      await h.db
        .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address) VALUES ('relinked', ${type}, ${id}, ${holder})`;
    }
    await h.db
      .sql`INSERT INTO positions (address, asset, market, token, size) VALUES (${holder}, ${held.tokens[0]}, ${held.conditionId}, 0, 3000000)`;
    const paths = [
      `/comments?parent_entity_type=Event&parent_entity_id=${event.id}`,
      `/comments?parent_entity_type=Series&parent_entity_id=${series.id}`,
    ];
    for (const path of paths) await eventually(async () => expect((await h.get(path)).body).toHaveLength(1));
    await h.app.positions.refresh();
    const positions = async () => Promise.all(paths.map(async (path) => (await h.get(path)).body[0].profile.positions));
    expect(await positions()).toEqual([[], []]);
    // The comments' JSON does not keep the positions of the links it was made with.
    const position = [{ tokenId: held.tokens[0], positionSize: '3000000' }];
    expect(
      (await h.operator('PATCH', `/operator/events/${event.id}`, { marketIds: [Number(m1.id), Number(m2.id)] })).status,
    ).toBe(200);
    expect(await positions()).toEqual([position, position]);
    expect((await h.operator('PATCH', `/operator/events/${event.id}`, { marketIds: [Number(m1.id)] })).status).toBe(
      200,
    );
    expect(await positions()).toEqual([[], []]);
  });

  it('orders events with equal volumes as shown by ascending id, however their markets add up', async () => {
    const [a, b] = [
      await created('/operator/events', { title: 'Tie A' }),
      await created('/operator/events', { title: 'Tie B' }),
    ];
    await created('/operator/markets', { question: 'Tie A market', eventIds: [Number(a.id)], volume: 0.3 });
    await created('/operator/markets', { question: 'Tie B market 1', eventIds: [Number(b.id)], volume: 0.1 });
    await created('/operator/markets', { question: 'Tie B market 2', eventIds: [Number(b.id)], volume: 0.2 });
    // 0.1 + 0.2 is 0.30000000000000004: summed raw, B would sort first.
    for (const ascending of [true, false]) {
      const listed = (await h.get(`/events?id=${a.id}&id=${b.id}&order=volume&ascending=${ascending}`)).body;
      expect(listed.map((e: { id: string; volume: number }) => [e.id, e.volume])).toEqual([
        [a.id, 0.3],
        [b.id, 0.3],
      ]);
    }
  });

  it('holders_only keeps comments whose author holds a token of the entity’s markets; profiles carry positions', async () => {
    const book = await h.orderBookMarket();
    const event = await created('/operator/events', { title: 'Held event' });
    await created('/operator/markets', { conditionId: book.conditionId, eventIds: [Number(event.id)] });
    const holder = '0x00000000000000000000000000000000000000c3';
    const bystander = '0x00000000000000000000000000000000000000c4';
    for (const address of [holder, bystander]) {
      await h.db
        .sql`INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, user_address) VALUES (${`by ${address}`}, 'Event', ${event.id}, ${address})`;
    }
    await h.db
      .sql`INSERT INTO positions (address, asset, market, token, size) VALUES (${holder}, ${book.tokens[1]}, ${book.conditionId}, 1, 12500000)`;
    await eventually(async () => expect((await h.get(`/comments?event_slug=${event.slug}`)).body).toHaveLength(2));
    await h.app.positions.refresh();
    const held = (await h.get(`/comments?event_slug=${event.slug}&holders_only=true`)).body;
    expect(held.map((c: { userAddress: string }) => c.userAddress)).toEqual([holder]);
    expect(held[0].profile.positions).toEqual([{ tokenId: book.tokens[1], positionSize: '12500000' }]);

    await h.db.sql`UPDATE positions SET size = 0 WHERE address = ${holder}`;
    await h.app.positions.refresh();
    expect((await h.get(`/comments?event_slug=${event.slug}&holders_only=true`)).body).toEqual([]);

    // A trader through a proxy wallet comments as its signer; the ledger holds the tokens under
    // the proxy (the maker). Both its own and its proxy's positions count.
    const proxy = '0x00000000000000000000000000000000000000d5';
    await h.db.sql`INSERT INTO proxy_wallets (proxy, signer, signature_type) VALUES (${proxy}, ${bystander}, 2)`;
    await h.db
      .sql`INSERT INTO positions (address, asset, market, token, size) VALUES (${proxy}, ${book.tokens[0]}, ${book.conditionId}, 0, 7000000)`;
    await h.db
      .sql`INSERT INTO positions (address, asset, market, token, size) VALUES (${bystander}, ${book.tokens[0]}, ${book.conditionId}, 0, 1000000)`;
    await h.app.positions.refresh();
    const viaProxy = (await h.get(`/comments?event_slug=${event.slug}&holders_only=true`)).body;
    expect(viaProxy.map((c: { userAddress: string }) => c.userAddress)).toEqual([bystander]);
    expect(viaProxy[0].profile.positions).toEqual([{ tokenId: book.tokens[0], positionSize: '8000000' }]);
  });
});

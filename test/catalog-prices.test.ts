// The catalog's outcome prices come from a real clob: its order-book listing (`GET /markets`,
// paged) read by the catalog's price feed, shown as `outcomePrices` of markets and events. The
// catalog's own tests use a stand-in for the clob; this pins the two services' shared shape.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Trader, limit } from '@pmx/testkit';
import { startClob, type Harness } from '@pmx/clob/testing';
import { startCatalog, type CatalogHarness } from '@pmx/catalog/testing';

const USDC = 1_000_000n;
let clob: Harness;
let catalog: CatalogHarness;

beforeAll(async () => {
  clob = await startClob();
  catalog = await startCatalog({ PMX_CATALOG_CLOB_URL: clob.url, PMX_CATALOG_PRICE_REFRESH_MS: '3600000' });
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  await clob?.close();
});

it("shows the clob's midpoints as outcome prices, in both tokens' terms", async () => {
  const { conditionId, yes, no } = await clob.createMarket();
  const book = await catalog.orderBookMarket({ conditionId, tokens: [yes, no] });
  const event = (await catalog.operator('POST', '/operator/events', { title: 'Priced by the clob' })).body;
  const market = (
    await catalog.operator('POST', '/operator/markets', { conditionId: book.conditionId, eventIds: [Number(event.id)] })
  ).body;
  expect(market.outcomePrices).toBe('["0.5","0.5"]');

  // A bid at 0.40 and an ask at 0.46 for Yes: midpoint 0.43, so No is at 0.57.
  const maker = new Trader(clob.url);
  await maker.createApiKey();
  await clob.deposit(maker.address, 100n * USDC);
  await clob.deposit(maker.address, 100n * USDC, yes);
  for (const order of [limit('BUY', '0.40', 10), limit('SELL', '0.46', 10)]) {
    expect((await maker.placeOrder({ tokenId: yes, ...order })).body.status).toBe('live');
  }
  await catalog.app.prices.refresh();
  expect((await catalog.get(`/markets/${market.id}`)).body.outcomePrices).toBe('["0.43","0.57"]');
  expect((await catalog.get(`/events/${event.id}`)).body.markets[0].outcomePrices).toBe('["0.43","0.57"]');
  clob.expectConsistent();
});

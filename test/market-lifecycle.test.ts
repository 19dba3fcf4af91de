// A market from creation to payout, with the front end, ingest and the catalog on one database:
// the four-trader lifecycle of lifecycle-scenario.ts (invariant after every step), a 50/50
// resolution with an odd base unit, and every refusal of the lifecycle and custody endpoints —
// each a 4xx in the simple error shape that moves nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Trader, eventually, limit } from '@pmx/testkit';
import { startCatalog, type CatalogHarness } from '@pmx/catalog/testing';
import type { Harness } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';
import {
  USDC,
  expectWhole,
  ledgerCaughtUp,
  pmx,
  runLifecycle,
  type LifecycleSystem,
  type Market,
} from './lifecycle-scenario.ts';

let system: ClobWithIngest;
let h: Harness;
let catalog: CatalogHarness;
let life: LifecycleSystem;

beforeAll(async () => {
  system = await startClobWithIngest();
  h = system.h;
  // The catalog reads the same Postgres: it learns of a close and a resolution from there.
  catalog = await startCatalog({ PMX_PG_URL: h.pgUrl });
  life = { url: h.url, operatorKey: h.operatorKey, sql: h.sql, alsoCheck: () => h.expectConsistent() };
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  await system?.close();
});

function newMarket(): Market {
  const id = () => BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
  return { conditionId: `0x${randomBytes(32).toString('hex')}`, yes: id(), no: id() };
}

async function traders<N extends number>(n: N): Promise<Trader[]> {
  const made: Trader[] = [];
  for (let i = 0; i < n; i++) {
    const trader = new Trader(h.url);
    await trader.createApiKey();
    made.push(trader);
  }
  return made;
}

describe('a market from creation to payout', () => {
  it('runs with four traders and the CLI alone, the invariant holding after every step, the catalog following', async () => {
    const market = newMarket();
    const [alice, bob, carol, dave] = await traders(4);
    let catalogId: string | undefined;
    await runLifecycle(life, [alice!, bob!, carol!, dave!], market, {
      catalog: async (m, stage) => {
        if (catalogId === undefined) {
          const linked = await catalog.operator('POST', '/operator/markets', { conditionId: m.conditionId });
          expect(linked.status).toBe(201);
          catalogId = linked.body.id;
        }
        const expected = {
          open: { closed: false, acceptingOrders: true, outcomePrices: '["0.5","0.5"]' },
          closed: { closed: true, acceptingOrders: false },
          resolved: { closed: true, acceptingOrders: false, outcomePrices: '["1","0"]' },
        }[stage];
        await eventually(async () => expect((await catalog.get(`/markets/${catalogId}`)).body).toMatchObject(expected));
        const listed = await catalog.get(`/markets?closed=${stage !== 'open'}&condition_id=${m.conditionId}`);
        expect(listed.body.map((row: { id: string }) => row.id)).toEqual([catalogId]);
      },
    });
    const [row] =
      await h.sql`SELECT state, payouts::text, closed_at IS NOT NULL AS closed, resolved_at IS NOT NULL AS resolved
                                FROM markets WHERE condition_id = ${market.conditionId}`;
    expect(row).toEqual({ state: 'resolved', payouts: '{1000000,0}', closed: true, resolved: true });
  });

  it('resolves 50/50: each token pays half, rounded down once over what is redeemed together', async () => {
    const market = newMarket();
    const [erin, frank] = await traders(2);
    await pmx(life, [
      'market',
      'create',
      '--condition-id',
      market.conditionId,
      '--question',
      'Even?',
      '--tokens',
      `${market.yes},${market.no}`,
    ]);
    for (const t of [erin!, frank!]) await h.deposit(t.address, 100n * BigInt(USDC));
    // An odd number of base units: the split's cost is 3 for Yes and 4 for No of the 7.
    expect((await erin!.authed('POST', '/split', { market: market.conditionId, amount: '7000007' })).status).toBe(200);
    await frank!.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.40', 5) });
    expect((await erin!.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.40', 5) })).body.status).toBe('matched');
    await expectWhole(life, [erin!, frank!], market);
    const resolved = await pmx(life, ['market', 'resolve', market.conditionId, '50/50']);
    expect(resolved).toMatchObject({
      status: 'resolved',
      is_50_50_outcome: true,
      tokens: [
        { winner: false, price: 0.5 },
        { winner: false, price: 0.5 },
      ],
    });
    // Erin holds 2.000007 Yes and 7.000007 No: 9.000014 tokens at 0.5 pay 4.500007.
    const erinRedeemed = await erin!.authed('POST', '/redeem', { market: market.conditionId });
    expect(erinRedeemed.body.collateral).toBe('4500007');
    const frankRedeemed = await frank!.authed('POST', '/redeem', { market: market.conditionId });
    expect(frankRedeemed.body.collateral).toBe('2500000');
    await expectWhole(life, [erin!, frank!], market);
    await ledgerCaughtUp(life);
    const [funds] =
      await h.sql`SELECT locked::text, paid_out::text, burnt0::text, burnt1::text FROM market_collateral WHERE condition_id = ${market.conditionId}`;
    expect(funds).toEqual({ locked: '0', paid_out: '7000007', burnt0: '7000007', burnt1: '7000007' });
  });
});

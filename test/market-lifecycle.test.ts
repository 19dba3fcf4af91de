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
  pmxCreate,
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
    await pmxCreate(life, market, 'Even?');
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

/** The simple error shape with this status and a message matching `message`. */
function expectRefused(response: { status: number; body: any }, status: number, message: string | RegExp): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(Object.keys(response.body)).toEqual(['error']);
  if (typeof message === 'string') expect(response.body.error).toBe(message);
  else expect(response.body.error).toMatch(message);
}

/** Everything that could move: the shards' event counts, the ledger, and the traders' balances. */
async function snapshot(market: Market, who: Trader[]) {
  await ledgerCaughtUp(life);
  const state = await h.operator('GET', '/operator/state');
  const [ledger] =
    await h.sql`SELECT count(*)::int AS entries, (SELECT state FROM markets WHERE condition_id = ${market.conditionId}) AS state FROM ledger_entries`;
  const balances = await Promise.all(
    who.flatMap((t) =>
      [
        'asset_type=COLLATERAL',
        `asset_type=CONDITIONAL&token_id=${market.yes}`,
        `asset_type=CONDITIONAL&token_id=${market.no}`,
      ].map(async (q) => (await t.authed('GET', `/balance-allowance?${q}`)).body),
    ),
  );
  return { seqs: state.body.shards.map((s: { seq: number }) => s.seq), ledger, balances };
}

describe('refusals', () => {
  it('each lifecycle and custody refusal is a 4xx in the simple shape, and nothing moves', async () => {
    const market = newMarket();
    const [gina, hal] = await traders(2);
    await pmxCreate(life, market, 'Refused?');
    await h.deposit(gina!.address, 10n * BigInt(USDC));
    await h.deposit(hal!.address, 10n * BigInt(USDC));
    expect(
      (await gina!.authed('POST', '/split', { market: market.conditionId, amount: String(4 * USDC) })).status,
    ).toBe(200);
    await ledgerCaughtUp(life);
    const split = (amount: string, t = gina!) => t.authed('POST', '/split', { market: market.conditionId, amount });
    const step = (name: string, body?: unknown) =>
      h.operator('POST', `/operator/markets/${market.conditionId}/${name}`, body);

    let before = await snapshot(market, [gina!, hal!]);
    expectRefused(
      await split(String(6 * USDC + 1)),
      400,
      'not enough balance / allowance: 6000000 of collateral available, 6000001 asked (base units)',
    );
    expectRefused(
      await hal!.authed('POST', '/merge', { market: market.conditionId, amount: String(USDC) }),
      400,
      `not enough balance / allowance: 0 of token ${market.yes} available, 1000000 asked (base units)`,
    );
    expectRefused(
      await hal!.authed('POST', '/redeem', { market: market.conditionId }),
      400,
      /^market is not resolved \(it is open\)/,
    );
    expectRefused(await split('0'), 400, /^amount must be a positive integer of base units/);
    expectRefused(await split('1.5'), 400, /^amount must be a positive integer of base units/);
    expectRefused(
      await gina!.authed('POST', '/split', { market: `0x${'ab'.repeat(32)}`, amount: '1' }),
      404,
      'market not found',
    );
    expectRefused(
      await gina!.authed('POST', '/split', { market: market.conditionId, amount: '1', extra: 1 }),
      400,
      'unknown field extra',
    );
    expectRefused(
      await gina!.send('POST', '/split', { body: JSON.stringify({ market: market.conditionId, amount: '1' }) }),
      401,
      /./,
    );
    expectRefused(await gina!.authed('POST', '/split', 'not json'), 400, 'invalid JSON body');
    expectRefused(
      await gina!.authed('POST', '/convert', { market: market.conditionId }),
      400,
      /^converting positions between the outcomes of a neg-risk event is not supported/,
    );
    expectRefused(await step('resume'), 400, 'market is not paused');
    expectRefused(
      await step('resolve', { outcome: 'Maybe' }),
      400,
      'outcome must be "Yes" or "No" (or its token id), or send is_50_50_outcome: true',
    );
    expectRefused(await step('resolve', {}), 400, /^outcome must be/);
    expectRefused(
      await step('resolve', { outcome: 'Yes', is_50_50_outcome: true }),
      400,
      'send either outcome or is_50_50_outcome, not both',
    );
    expectRefused(await h.operator('POST', `/operator/markets/0x${'cd'.repeat(32)}/pause`), 404, 'market not found');
    expect((await fetch(`${h.url}/operator/markets/${market.conditionId}/pause`, { method: 'POST' })).status).toBe(401);
    expect(await snapshot(market, [gina!, hal!])).toEqual(before);

    expect((await step('pause')).status).toBe(200);
    expectRefused(await step('pause'), 400, 'market is already paused');
    expect((await step('close')).status).toBe(200);
    before = await snapshot(market, [gina!, hal!]);
    expectRefused(await step('close'), 400, 'market is already closed');
    expectRefused(await step('pause'), 400, 'market is closed: it cannot be paused');
    expectRefused(await split(String(USDC)), 400, /^market is closed: no more splits once a market closes/);
    expectRefused(
      await gina!.authed('POST', '/redeem', { market: market.conditionId }),
      400,
      /^market is not resolved \(it is closed\)/,
    );
    expect(await snapshot(market, [gina!, hal!])).toEqual(before);

    expect((await step('resolve', { outcome: 'no' })).body).toMatchObject({
      status: 'resolved',
      tokens: [{ winner: false }, { winner: true }],
    });
    expectRefused(await step('resolve', { outcome: 'No' }), 400, 'market is already resolved');
    expectRefused(await step('resolve', { is_50_50_outcome: true }), 400, 'market is already resolved');
    expect((await gina!.authed('POST', '/redeem', { market: market.conditionId })).body.collateral).toBe(
      String(4 * USDC),
    );
    before = await snapshot(market, [gina!, hal!]);
    expectRefused(
      await gina!.authed('POST', '/redeem', { market: market.conditionId }),
      400,
      'nothing to redeem: you hold no tokens of this market (already redeemed?)',
    );
    expectRefused(await hal!.authed('POST', '/redeem', { market: market.conditionId }), 400, /^nothing to redeem/);
    expectRefused(await step('resume'), 400, 'market is resolved: it cannot be resumed');
    expect(await snapshot(market, [gina!, hal!])).toEqual(before);
    await expectWhole(life, [gina!, hal!], market);
  });

  it('a neg-risk market resolves to one winner: 50/50 is refused, a winner is taken', async () => {
    const market = await h.createMarket({ neg_risk: true });
    const resolve = (body: unknown) => h.operator('POST', `/operator/markets/${market.conditionId}/resolve`, body);
    expectRefused(
      await resolve({ is_50_50_outcome: true }),
      400,
      'a neg-risk market resolves to one winning outcome: 50/50 is not supported for neg-risk markets',
    );
    expect((await resolve({ outcome: market.yes })).body).toMatchObject({
      status: 'resolved',
      neg_risk: true,
      tokens: [{ winner: true }, { winner: false }],
    });
  });

  it('a market whose shard cannot open it is not stored, and its creation can be sent again', async () => {
    const market = newMarket();
    const body = {
      condition_id: market.conditionId,
      question: 'Opened?',
      tokens: [
        { token_id: market.yes, outcome: 'Yes' },
        { token_id: market.no, outcome: 'No' },
      ],
    };
    // The market's shard fails the opening (a fault in its thread, injected here): refused with the reason.
    const shards = h.app.shards;
    const submit = shards.submit.bind(shards);
    shards.submit = (shard, command) =>
      command.type === 'market'
        ? Promise.resolve({ type: 'error', message: 'injected fault' })
        : submit(shard, command);
    try {
      const refused = await h.operator('POST', '/operator/markets', body);
      expect(refused).toEqual({ status: 503, body: { error: "the market's shard could not open it: injected fault" } });
    } finally {
      shards.submit = submit;
    }
    expect(await h.sql`SELECT 1 FROM markets WHERE condition_id = ${market.conditionId}`).toHaveLength(0);
    expect((await h.operator('GET', `/markets/${market.conditionId}`)).status).toBe(404);
    expect(await h.sql`SELECT 1 FROM market_tokens WHERE token_id = ${market.yes}`).toHaveLength(0);
    const made = await h.operator('POST', '/operator/markets', body);
    expect(made.status).toBe(201);
    expect((await h.operator('POST', '/operator/markets', body)).status).toBe(200);
  });
});

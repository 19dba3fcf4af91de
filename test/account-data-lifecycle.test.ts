// Account data through a market's whole life, every part real: a clob and ingest over one
// database, the data service reading it, four traders with signed orders. Two markets: "A"
// (split → a transfer, a mint and a merge match → merges → resolved Yes → redeemed) and "B" (split
// → a transfer and a mint → resolved 50/50 → redeemed). After each step every figure of every
// position, closed position and holder is checked against numbers worked out by hand here
// (average cost, as ingest keeps it), then the ledger and the exchange's own consistency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Trader, limit } from '@pmx/testkit';
import { startData, type DataHarness } from '@pmx/data/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';
import { expectWhole, ledgerCaughtUp, type LifecycleSystem, type Market } from './lifecycle-scenario.ts';

const USDC = 1_000_000;
const NAMES = ['alice', 'bob', 'carol', 'dave'] as const;
type Name = (typeof NAMES)[number];

let system: ClobWithIngest;
let life: LifecycleSystem;
let data: DataHarness;
const markets = {} as Record<'A' | 'B', Market>;
const traders = {} as Record<Name, Trader>;
const wallet = (name: Name) => traders[name].address.toLowerCase();
let startedAt: number;

beforeAll(async () => {
  startedAt = Math.floor(Date.now() / 1000);
  system = await startClobWithIngest();
  const h = system.h;
  life = { url: h.url, operatorKey: h.operatorKey, sql: h.sql, alsoCheck: () => h.expectConsistent() };
  markets.A = await h.createMarket();
  markets.B = await h.createMarket();
  for (const name of NAMES) {
    traders[name] = new Trader(h.url);
    await traders[name].createApiKey();
    await h.deposit(traders[name].address, 1000n * BigInt(USDC));
  }
  data = await startData({ sql: h.sql, clobUrl: h.url });
}, 120_000);

afterAll(async () => {
  await data?.close();
  await system?.close();
});

/** The ledger caught up, sound, and the exchange consistent, for both markets. */
async function expectSound(): Promise<void> {
  const all = NAMES.map((name) => traders[name]);
  for (const market of Object.values(markets)) await expectWhole(life, all, market);
}

async function ok(sent: Promise<{ status: number; body: any }>): Promise<any> {
  const response = await sent;
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function place(who: Name, token: string, side: 'BUY' | 'SELL', price: string, size: number): Promise<string> {
  const response = await traders[who].placeOrder({ tokenId: token, ...limit(side, price, size) });
  expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: true });
  return response.body.status;
}

const custody = (who: Name, op: 'split' | 'merge', market: Market, tokens: number) =>
  ok(traders[who].authed('POST', `/${op}`, { market: market.conditionId, amount: String(tokens * USDC) }));

const FIGURES = [
  'size',
  'avgPrice',
  'initialValue',
  'currentValue',
  'cashPnl',
  'percentPnl',
  'totalBought',
  'realizedPnl',
  'percentRealizedPnl',
  'curPrice',
  'redeemable',
  'mergeable',
] as const;
type Figure = (typeof FIGURES)[number];
/** The figures that do not depend on the price (before resolution the book's, not checked here). */
const PRICED = new Set<Figure>(['currentValue', 'cashPnl', 'percentPnl', 'curPrice']);
const COST_FIGURES = FIGURES.filter((f) => !PRICED.has(f));
/** "A Yes" → figures. */
type Book = Record<string, Partial<Record<Figure, number | boolean>>>;

function marketName(conditionId: string): string {
  return Object.entries(markets).find(([, m]) => m.conditionId === conditionId)![0];
}

async function read(path: '/positions' | '/closed-positions', who: Name, figures: readonly Figure[]): Promise<Book> {
  const reply = await data.get(`${path}?user=${traders[who].address}&limit=50`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return Object.fromEntries(
    reply.body.map((p: any) => [
      `${marketName(p.conditionId)} ${p.outcome}`,
      Object.fromEntries(figures.map((f) => [f, p[f]])),
    ]),
  );
}

/** Until each trader named in `open` shows exactly these open and closed positions (in any order). */
async function expectBooks(
  figures: readonly Figure[],
  open: Partial<Record<Name, Book>>,
  closed: Partial<Record<Name, Book>> = {},
): Promise<void> {
  for (const who of Object.keys(open) as Name[]) {
    const poll = (path: '/positions' | '/closed-positions') =>
      expect.poll(() => read(path, who, figures), { timeout: 10_000, interval: 50 });
    await poll('/positions').toEqual(open[who]);
    await poll('/closed-positions').toEqual(closed[who] ?? {});
  }
}

/** An open position's figures that do not depend on the price. */
function held(size: number, avgPrice: number, cost: number, bought: number, pnl = 0, pct = 0, both = false) {
  const figures = { size, avgPrice, initialValue: cost, totalBought: bought, realizedPnl: pnl };
  return { ...figures, percentRealizedPnl: pct, redeemable: false, mergeable: both };
}

/** A closed position's figures that do not depend on the price. */
function gone(avgPrice: number, bought: number, pnl: number, pct: number) {
  return { ...held(0, avgPrice, 0, bought, pnl, pct), mergeable: false };
}

/** Until each outcome's holders are these [address, amount], largest first. */
async function expectHolders(market: Market, expected: [Name, number][][]): Promise<void> {
  const want = expected.map((token) => token.map(([who, amount]) => [wallet(who), amount]));
  await expect.poll(() => holders(market), { timeout: 10_000, interval: 50 }).toEqual(want);
}

async function holders(market: Market): Promise<[string, number][][]> {
  const reply = await data.get(`/holders?market=${market.conditionId}`);
  expect(reply.status).toBe(200);
  return reply.body.map((token: any) => token.holders.map((h: any) => [h.proxyWallet, h.amount]));
}

/** What each answer shows now, for comparing with a restarted service. */
async function everything(): Promise<unknown[]> {
  const paths = [
    ...NAMES.flatMap((who) => [
      `/positions?user=${traders[who].address}&sizeThreshold=0`,
      `/closed-positions?user=${traders[who].address}&limit=50`,
    ]),
    `/holders?market=${markets.A.conditionId},${markets.B.conditionId}&minBalance=0`,
  ];
  return Promise.all(paths.map(async (path) => (await data.get(path)).body));
}

// Costs below: a split buys each token at 0.5; a trade buys or sells at the order's price; a
// merge (custody) sells each token at 0.5; a redemption sells each token at its payout. A
// reduction removes its share of the cost basis (average cost) and realizes proceeds − that cost.
describe('account data over a market’s life', () => {
  it('counts a split as buying both outcomes at half the collateral each', async () => {
    await custody('alice', 'split', markets.A, 100);
    await custody('bob', 'split', markets.A, 50);
    await custody('carol', 'split', markets.B, 20);
    await expectSound();
    const split = (market: string, size: number) => ({
      [`${market} Yes`]: held(size, 0.5, size / 2, size, 0, 0, true),
      [`${market} No`]: held(size, 0.5, size / 2, size, 0, 0, true),
    });
    await expectBooks(COST_FIGURES, { alice: split('A', 100), bob: split('A', 50), carol: split('B', 20), dave: {} });
    await expectHolders(markets.A, [
      [
        ['alice', 100],
        ['bob', 50],
      ],
      [
        ['alice', 100],
        ['bob', 50],
      ],
    ]);
  });

  it('keeps average cost through a transfer, a mint and a merge match; holders of both outcomes are mergeable', async () => {
    const { A, B } = markets;
    // A. Transfer: alice sells carol 40 Yes at 0.60. Mint: carol's Yes at 0.55 and dave's No at
    // 0.45. Merge match: bob's Yes at 0.48 and alice's No at 0.52. Transfer: bob sells dave 10 Yes at 0.70.
    await place('alice', A.yes, 'SELL', '0.60', 40);
    expect(await place('carol', A.yes, 'BUY', '0.60', 40)).toBe('matched');
    await place('carol', A.yes, 'BUY', '0.55', 20);
    expect(await place('dave', A.no, 'BUY', '0.45', 20)).toBe('matched');
    await place('bob', A.yes, 'SELL', '0.48', 10);
    expect(await place('alice', A.no, 'SELL', '0.52', 10)).toBe('matched');
    await place('bob', A.yes, 'SELL', '0.70', 10);
    expect(await place('dave', A.yes, 'BUY', '0.70', 10)).toBe('matched');
    // B. Transfer: carol sells dave all her 20 No at 0.30. Mint: alice's Yes at 0.70 and bob's No at 0.30.
    await place('carol', B.no, 'SELL', '0.30', 20);
    expect(await place('dave', B.no, 'BUY', '0.30', 20)).toBe('matched');
    await place('alice', B.yes, 'BUY', '0.70', 10);
    expect(await place('bob', B.no, 'BUY', '0.30', 10)).toBe('matched');
    await expectSound();
    await expectBooks(
      COST_FIGURES,
      {
        // 100 Yes for 50, 40 sold for 24 (cost 20): +4 (20 % of 20); 60 left for 30.
        // 100 No for 50, 10 sold for 5.20 (cost 5): +0.20 (4 %); 90 left for 45.
        alice: {
          'A No': held(90, 0.5, 45, 100, 0.2, 4, true),
          'A Yes': held(60, 0.5, 30, 100, 4, 20, true),
          'B Yes': held(10, 0.7, 7, 10),
        },
        // 50 Yes for 25: 10 sold for 4.80 (cost 5), −0.20; 10 for 7.00 (cost 5), +2: 30 left for 15, 1.8 on 10.
        bob: {
          'A No': held(50, 0.5, 25, 50, 0, 0, true),
          'A Yes': held(30, 0.5, 15, 50, 1.8, 18, true),
          'B No': held(10, 0.3, 3, 10),
        },
        // 40 Yes for 24 and 20 for 11: 60 for 35 (0.58333…). B: 20 Yes from the split.
        carol: { 'A Yes': held(60, 0.5833, 35, 60), 'B Yes': held(20, 0.5, 10, 20) },
        dave: {
          'B No': held(20, 0.3, 6, 20),
          'A No': held(20, 0.45, 9, 20, 0, 0, true),
          'A Yes': held(10, 0.7, 7, 10, 0, 0, true),
        },
      },
      // carol's 20 No of B, bought at 0.5 by the split, sold at 0.30: −4, −40 % of their cost.
      { carol: { 'B No': gone(0.5, 20, -4, -40) } },
    );
  });

  it('realizes a merge at half the collateral per token, a position merged away closing', async () => {
    const { A } = markets;
    await custody('alice', 'merge', A, 20);
    await custody('dave', 'merge', A, 10);
    await expectSound();
    // alice: 20 of 60 Yes (cost 10) and 20 of 90 No (cost 10) sold for 10 each: nothing realized.
    // dave: all 10 Yes (cost 7) for 5, −2; 10 of 20 No (cost 4.50) for 5, +0.50.
    await expectBooks(
      COST_FIGURES,
      {
        alice: {
          'A No': held(70, 0.5, 35, 100, 0.2, 1.3333, true), // 0.20 on 5 + 10
          'A Yes': held(40, 0.5, 20, 100, 4, 13.3333, true), // 4 on 20 + 10
          'B Yes': held(10, 0.7, 7, 10),
        },
        dave: { 'B No': held(20, 0.3, 6, 20), 'A No': held(10, 0.45, 4.5, 20, 0.5, 11.1111) },
      },
      { dave: { 'A Yes': gone(0.7, 10, -2, -28.5714) } },
    );
    const mergeable = await data.get(`/positions?user=${traders.alice.address}&mergeable=true`);
    expect(mergeable.body.map((p: any) => p.asset).sort()).toEqual([`${A.conditionId}:0`, `${A.conditionId}:1`]);
    await expectHolders(A, [
      [
        ['carol', 60],
        ['alice', 40],
        ['bob', 30],
      ],
      [
        ['alice', 70],
        ['bob', 50],
        ['dave', 10],
      ],
    ]);
  });

  it('values every position at its payout once resolved: Yes pays 1 and No 0, 50/50 pays 0.5 each', async () => {
    const { A, B } = markets;
    const resolve = (market: Market, body: unknown) =>
      ok(system.h.operator('POST', `/operator/markets/${market.conditionId}/resolve`, body));
    expect(await resolve(A, { outcome: 'Yes' })).toMatchObject({ status: 'resolved' });
    expect(await resolve(B, { is_50_50_outcome: true })).toMatchObject({ status: 'resolved', is_50_50_outcome: true });
    await expectSound();
    // [size, avgPrice, cost, value, cashPnl, percentPnl, bought, realized, % realized, price, redeemable, mergeable]
    const p = (
      ...f: [number, number, number, number, number, number, number, number, number, number, boolean, boolean]
    ) => Object.fromEntries(FIGURES.map((name, i) => [name, f[i]]));
    await expectBooks(
      FIGURES,
      {
        alice: {
          'A Yes': p(40, 0.5, 20, 40, 20, 100, 100, 4, 13.3333, 1, true, true),
          'A No': p(70, 0.5, 35, 0, -35, -100, 100, 0.2, 1.3333, 0, false, true),
          'B Yes': p(10, 0.7, 7, 5, -2, -28.5714, 10, 0, 0, 0.5, true, false), // −2 / 7 = −28.5714…%
        },
        bob: {
          'A Yes': p(30, 0.5, 15, 30, 15, 100, 50, 1.8, 18, 1, true, true),
          'A No': p(50, 0.5, 25, 0, -25, -100, 50, 0, 0, 0, false, true),
          'B No': p(10, 0.3, 3, 5, 2, 66.6666, 10, 0, 0, 0.5, true, false),
        },
        carol: {
          'A Yes': p(60, 0.5833, 35, 60, 25, 71.4285, 60, 0, 0, 1, true, false), // 25 / 35 = 71.4285…%
          'B Yes': p(20, 0.5, 10, 10, 0, 0, 20, 0, 0, 0.5, true, false),
        },
        dave: {
          'A No': p(10, 0.45, 4.5, 0, -4.5, -100, 20, 0.5, 11.1111, 0, false, false),
          'B No': p(20, 0.3, 6, 10, 4, 66.6666, 20, 0, 0, 0.5, true, false),
        },
      },
      {
        carol: { 'B No': p(0, 0.5, 0, 0, 0, 0, 20, -4, -40, 0.5, false, false) },
        dave: { 'A Yes': p(0, 0.7, 0, 0, 0, 0, 10, -2, -28.5714, 1, false, false) },
      },
    );
    const [aliceYes] = (await data.get(`/positions?user=${traders.alice.address}&market=${A.conditionId}&sortBy=PRICE`))
      .body;
    expect(aliceYes).toEqual({
      proxyWallet: wallet('alice'),
      asset: `${A.conditionId}:0`,
      conditionId: A.conditionId,
      ...p(40, 0.5, 20, 40, 20, 100, 100, 4, 13.3333, 1, true, true),
      title: expect.stringMatching(/^Test market \d+\?$/),
      slug: '',
      icon: '',
      eventSlug: '',
      outcome: 'Yes',
      outcomeIndex: 0,
      oppositeOutcome: 'No',
      oppositeAsset: `${A.conditionId}:1`,
      endDate: '',
      timestamp: expect.any(Number),
      negativeRisk: false,
    });
    const redeemable = await data.get(`/positions?user=${traders.alice.address}&redeemable=true`);
    expect(redeemable.body.map((p: any) => p.asset).sort()).toEqual(
      [`${A.conditionId}:0`, `${B.conditionId}:0`].sort(),
    );
  });

  it('shows after a restart exactly what it showed live, once resolved', async () => {
    const live = await everything();
    await data.restart();
    expect(await everything()).toEqual(live);
  });

  it('closes redeemed positions at their payout and drops their holders', async () => {
    const { A, B } = markets;
    const redeem = (who: Name, market: Market) =>
      ok(traders[who].authed('POST', '/redeem', { market: market.conditionId }));
    expect((await redeem('alice', A)).collateral).toBe(String(40 * USDC));
    await ledgerCaughtUp(life);
    // alice is no longer a holder; the others are, until they redeem too.
    await expectHolders(A, [
      [
        ['carol', 60],
        ['bob', 30],
      ],
      [
        ['bob', 50],
        ['dave', 10],
      ],
    ]);
    const paid = { A: { bob: 30, carol: 60, dave: 0 }, B: { alice: 5, bob: 5, carol: 10, dave: 10 } };
    for (const [name, payouts] of Object.entries(paid))
      for (const [who, collateral] of Object.entries(payouts))
        expect((await redeem(who as Name, markets[name as 'A' | 'B'])).collateral, `${who} ${name}`).toBe(
          String(collateral * USDC),
        );
    await expectSound();
    await expectHolders(A, [[], []]);
    await expectHolders(B, [[], []]);
    const c = (avgPrice: number, bought: number, pnl: number, pct: number, price: number) => {
      const valued = { currentValue: 0, cashPnl: 0, percentPnl: 0, curPrice: price };
      return { ...gone(avgPrice, bought, pnl, pct), ...valued };
    };
    const closed: Record<Name, Book> = {
      // A: Yes 4 + (40 − 20) on a cost of 20 + 10 + 20; No 0.2 + (0 − 35) on 5 + 10 + 35. B: 5 − 7.
      alice: {
        'A Yes': c(0.5, 100, 24, 48, 1),
        'B Yes': c(0.7, 10, -2, -28.5714, 0.5),
        'A No': c(0.5, 100, -34.8, -69.6, 0),
      },
      bob: {
        'A Yes': c(0.5, 50, 16.8, 67.2, 1),
        'B No': c(0.3, 10, 2, 66.6666, 0.5),
        'A No': c(0.5, 50, -25, -100, 0),
      },
      carol: {
        'A Yes': c(0.5833, 60, 25, 71.4285, 1),
        'B Yes': c(0.5, 20, 0, 0, 0.5),
        'B No': c(0.5, 20, -4, -40, 0.5),
      },
      dave: {
        'B No': c(0.3, 20, 4, 66.6666, 0.5),
        'A Yes': c(0.7, 10, -2, -28.5714, 1),
        'A No': c(0.45, 20, -4, -44.4444, 0),
      },
    };
    await expectBooks(FIGURES, { alice: {}, bob: {}, carol: {}, dave: {} }, closed);
    for (const who of NAMES) {
      // Listed by realized PnL, most first; together they are what the trader made or lost.
      const list = (await data.get(`/closed-positions?user=${traders[who].address}`)).body;
      expect(
        list.map((p: any) => `${marketName(p.conditionId)} ${p.outcome}`),
        who,
      ).toEqual(Object.keys(closed[who]));
      const made = list.reduce((sum: number, p: any) => sum + Math.round(p.realizedPnl * USDC), 0);
      const balance = await ok(traders[who].authed('GET', '/balance-allowance?asset_type=COLLATERAL'));
      expect(made, who).toBe(Number(balance.balance) - 1000 * USDC);
      for (const p of list) expect(p.timestamp).toBeGreaterThanOrEqual(startedAt);
    }
  });

  it('shows after a restart exactly what it showed live, once redeemed', async () => {
    const live = await everything();
    await data.restart();
    expect(await everything()).toEqual(live);
  });
});

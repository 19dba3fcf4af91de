// Account data over a ledger that ingest's ShardLedger writes from real engine events, the data
// service following it from the start: every sort, filter, default and bound of GET /positions,
// /closed-positions and /holders; resolved markets (their payout is the price, a paying token is
// redeemable); every error in the contract's `<code>: <detail>` shape; the IP allowlist; and the
// same answers from a service started afresh. Redemptions, and a market's whole life through the
// exchange: account-data-lifecycle.test.ts.
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import type { TestMarket } from '@pmx/ingest/testing';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { startData, type DataHarness } from '@pmx/data/testing';
import { LedgerWriter } from './ledger-writer.ts';

const T = 1_000_000; // base units per token or per unit of collateral
const address = (start: string): string => `0x${start.padEnd(40, '0')}`;
const ALICE = address('a11ce');
const BOB = address('b0b');
const CAROL = address('ca201');
const DAVE = address('da7e');

let db: TestDatabase;
let data: DataHarness;
let writer: LedgerWriter;
/** Alice's markets, named for their catalog titles. */
const m = {} as Record<'alpha' | 'bravo' | 'charlie' | 'delta' | 'echo' | 'foxtrot', TestMarket>;
/** Carol's 120 markets (the default and largest pages) and the 25-holder market. */
let many: TestMarket[] = [];
let crowded: TestMarket;
const asset = (market: TestMarket, index: 0 | 1) => `${market.conditionId}:${index}`;
const assets = (reply: { body: { asset: string }[] }) => reply.body.map((p) => p.asset);

async function listInCatalog(market: TestMarket, title: string, endDate: string | null): Promise<void> {
  await db.sql`
    INSERT INTO catalog_markets (condition_id, question, slug, end_date)
    VALUES (${market.conditionId}, ${title}, ${title.toLowerCase().replaceAll(' ', '-').replace('?', '')}, ${endDate})`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  data = await startData({ sql: db.sql });
  writer = new LedgerWriter(db.sql);
  for (const name of Object.keys({
    alpha: 0,
    bravo: 0,
    charlie: 0,
    delta: 0,
    echo: 0,
    foxtrot: 0,
  }) as (keyof typeof m)[])
    m[name] = await writer.market(`reads-${name}`);
  await writer.fund(ALICE, 'collateral', 100 * T);
  await writer.fund(BOB, 'collateral', 100 * T);
  // Bob sells tokens deposited at no cost: each sale closes a position of his, all profit.
  const deposits: [TestMarket, 0 | 1, number][] = [
    [m.alpha, 0, 30 * T],
    [m.bravo, 0, 10 * T],
    [m.charlie, 1, 20 * T],
    [m.delta, 0, 5 * T],
    [m.delta, 1, 5 * T],
    [m.echo, 0, 8 * T],
    [m.foxtrot, 1, T / 2],
  ];
  for (const [market, token, amount] of deposits) await writer.fund(BOB, market.tokens[token], amount);
  await writer.batch((ops) => {
    const sell = (market: TestMarket, token: 0 | 1, price: number, size: number) =>
      writer.trade(ops, { market, token, seller: BOB, buyer: ALICE, price, size });
    sell(m.alpha, 0, 20, 30 * T); // 30 for 6.00
    sell(m.bravo, 0, 70, 10 * T); // 10 for 7.00
    sell(m.charlie, 1, 50, 20 * T); // 20 for 10.00
    sell(m.delta, 0, 90, 5 * T); // 5 for 4.50
    sell(m.delta, 1, 5, 5 * T); // 5 for 0.25
    sell(m.echo, 0, 40, 8 * T); // 8 for 3.20 …
    sell(m.foxtrot, 1, 30, T / 2); // 0.5 for 0.15
  });
  // … sold back to Bob at 0.60: 4.80 − 3.20 = 1.60 realized.
  await writer.batch((ops) =>
    writer.trade(ops, { market: m.echo, token: 0, seller: ALICE, buyer: BOB, price: 60, size: 8 * T }),
  );
  await listInCatalog(m.alpha, 'Alpha wins?', '2027-03-01T00:00:00Z');
  await listInCatalog(m.bravo, 'Bravo wins?', '2027-01-01T00:00:00Z');
  await listInCatalog(m.charlie, 'Charlie wins?', '2027-02-01T00:00:00Z');
  await listInCatalog(m.delta, 'Delta wins?', null);
  await listInCatalog(m.echo, 'Echo wins?', '2026-12-01T00:00:00Z');
  await listInCatalog(m.foxtrot, 'Foxtrot wins?', '2027-04-01T00:00:00Z');
  await writer.batch((ops) => {
    ops.resolve(m.bravo, [T, 0]); // Alice's YES pays 1
    ops.resolve(m.charlie, [T, 0]); // Alice's NO pays nothing
  });

  // Carol: 120 markets bought from Dave, 12 of them sold back (closed).
  many = [];
  for (let i = 0; i < 120; i++) many.push(await writer.market(`reads-many-${i}`));
  await writer.fund(CAROL, 'collateral', 1000 * T);
  await writer.fund(DAVE, 'collateral', 1000 * T);
  for (const market of many) await writer.fund(DAVE, market.tokens[0], 3 * T);
  await writer.batch((ops) => {
    many.forEach((market, i) =>
      writer.trade(ops, { market, token: 0, seller: DAVE, buyer: CAROL, price: 10 + (i % 80), size: T + i * 10_000 }),
    );
  });
  await writer.batch((ops) => {
    many
      .slice(0, 12)
      .forEach((market, i) =>
        writer.trade(ops, { market, token: 0, seller: CAROL, buyer: DAVE, price: 50, size: T + i * 10_000 }),
      );
  });
  // 25 holders of one token, i + 1 tokens each.
  crowded = await writer.market('reads-crowded');
  await writer.fund(DAVE, crowded.tokens[0], 325 * T); // 1 + 2 + … + 25: he sells them all
  const holders = Array.from({ length: 25 }, (_, i) => address(`f${i.toString(16).padStart(2, '0')}`));
  for (const holder of holders) await writer.fund(holder, 'collateral', 30 * T);
  await writer.batch((ops) =>
    holders.forEach((holder, i) =>
      writer.trade(ops, { market: crowded, token: 0, seller: DAVE, buyer: holder, price: 50, size: (i + 1) * T }),
    ),
  );
  // Everything shown: the last trade, the titles, the resolutions.
  await data.until(`/holders?market=${crowded.conditionId}`, (r) => r.body[0]?.holders.length === 20);
  await data.until(
    `/positions?user=${ALICE}&sortBy=TITLE&sortDirection=ASC`,
    (r) =>
      r.body.length === 5 && r.body[0].title === 'Alpha wins?' && r.body[1].curPrice === 1 && r.body[2].curPrice === 0,
  );
}, 120_000);

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

describe('GET /positions', () => {
  const get = (query: string) => data.get(`/positions?user=${ALICE}${query}`);
  const a0 = () => asset(m.alpha, 0);
  const b0 = () => asset(m.bravo, 0);
  const c1 = () => asset(m.charlie, 1);
  const d0 = () => asset(m.delta, 0);
  const d1 = () => asset(m.delta, 1);
  const byAsset = (...ids: string[]) => [...ids].sort();

  it('lists positions of at least 1 token by tokens held, most first, by default', async () => {
    expect(assets(await get(''))).toEqual([a0(), c1(), b0(), ...byAsset(d0(), d1())]);
  });

  it('sorts by each figure the contract names, both ways', async () => {
    // Values: alpha 30 × 0.5 = 15 (cost 6), bravo 10 × 1 = 10 (7), charlie 20 × 0 = 0 (10),
    // delta YES 5 × 0.5 = 2.5 (4.5), delta NO 5 × 0.5 = 2.5 (0.25). Each order is given as groups
    // of equal keys, greatest first; inside a group positions go by asset, in either direction.
    const cases: [string, string[][]][] = [
      ['CURRENT', [[a0()], [b0()], [d0(), d1()], [c1()]]],
      ['INITIAL', [[c1()], [b0()], [a0()], [d0()], [d1()]]],
      ['TOKENS', [[a0()], [c1()], [b0()], [d0(), d1()]]],
      ['CASHPNL', [[a0()], [b0()], [d1()], [d0()], [c1()]]], // 9, 3, 2.25, −2, −10
      ['PERCENTPNL', [[d1()], [a0()], [b0()], [d0()], [c1()]]], // 900, 150, 42.857, −44.44, −100
      ['PRICE', [[b0()], [a0(), d0(), d1()], [c1()]]],
      ['AVGPRICE', [[d0()], [b0()], [c1()], [a0()], [d1()]]], // 0.9, 0.7, 0.5, 0.2, 0.05
      ['TITLE', [[d0(), d1()], [c1()], [b0()], [a0()]]],
      ['RESOLVING', [[d0(), d1()], [a0()], [c1()], [b0()]]], // none (farthest), Mar, Feb, Jan 2027
    ];
    const flat = (groups: string[][]) => groups.flatMap((group) => [...group].sort());
    for (const [sortBy, groups] of cases) {
      expect(assets(await get(`&sortBy=${sortBy}`)), sortBy).toEqual(flat(groups));
      expect(assets(await get(`&sortBy=${sortBy}&sortDirection=DESC`)), sortBy).toEqual(flat(groups));
      expect(assets(await get(`&sortBy=${sortBy.toLowerCase()}&sortDirection=asc`)), sortBy).toEqual(
        flat([...groups].reverse()),
      );
    }
    expect(assets(await get('&sortBy=RESOLVING&sortDirection=ascending'))).toEqual([b0(), c1(), a0(), d0(), d1()]);
    expect(assets(await get('&sortBy=TITLE&sortDirection=descending'))).toEqual([d0(), d1(), c1(), b0(), a0()]);
  });

  it('values a resolved market at its payout: a paying token is redeemable, a losing one worth 0', async () => {
    const [bravo] = (await get(`&market=${m.bravo.conditionId}`)).body;
    expect(bravo).toMatchObject({
      size: 10,
      avgPrice: 0.7,
      initialValue: 7,
      currentValue: 10,
      cashPnl: 3,
      percentPnl: 42.8571, // 3 / 7 × 100 = 42.857142…
      curPrice: 1,
      redeemable: true,
      mergeable: false,
      title: 'Bravo wins?',
      endDate: '2027-01-01T00:00:00.000Z',
    });
    const [charlie] = (await get(`&market=${m.charlie.conditionId}`)).body;
    expect(charlie).toMatchObject({ curPrice: 0, currentValue: 0, cashPnl: -10, percentPnl: -100, redeemable: false });
    expect(assets(await get('&redeemable=true'))).toEqual([b0()]);
    expect(assets(await get('&redeemable=false'))).toHaveLength(5);
  });

  it('filters by markets, title, mergeable and size threshold, and pages with limit and offset', async () => {
    expect(
      assets(await get(`&market=${m.charlie.conditionId},${m.alpha.conditionId.toUpperCase().replace('0X', '0x')}`)),
    ).toEqual([a0(), c1()]);
    expect(assets(await get('&title=ALPHA'))).toEqual([a0()]);
    expect(assets(await get('&title=wins&sortBy=TITLE&sortDirection=ASC&limit=2&offset=1'))).toEqual([b0(), c1()]);
    expect(assets(await get('&mergeable=true'))).toEqual(byAsset(d0(), d1()));
    expect((await get('&mergeable=true')).body.every((p: { mergeable: boolean }) => p.mergeable)).toBe(true);
    // 0.5 NO of foxtrot shows from a threshold of 0.5 down; a threshold of 25 leaves alpha alone.
    expect(assets(await get('&sizeThreshold=0.5'))).toContain(asset(m.foxtrot, 1));
    expect(assets(await get('&sizeThreshold=0.5000001'))).not.toContain(asset(m.foxtrot, 1));
    expect(assets(await get('&sizeThreshold=0'))).toHaveLength(6);
    expect(assets(await get('&sizeThreshold=25'))).toEqual([a0()]);
    expect((await get('&offset=5')).body).toEqual([]);
    expect((await get('&limit=0')).body).toEqual([]);
    expect((await data.get(`/positions?user=${address('e0e0')}`)).body).toEqual([]);
  });

  it('answers 100 positions by default and up to 500, from offset up to 10,000', async () => {
    const carol = (query: string) => data.get(`/positions?user=${CAROL}${query}`);
    expect((await carol('')).body).toHaveLength(100);
    expect((await carol('&offset=100')).body).toHaveLength(8);
    expect((await carol('&limit=500')).body).toHaveLength(108);
    expect((await carol('&limit=500&offset=10000')).body).toEqual([]);
    // Carol's sizes grow with the market's number: by tokens, most first.
    const sizes = (await carol('&limit=500')).body.map((p: { size: number }) => p.size);
    expect(sizes).toEqual([...sizes].sort((x: number, y: number) => y - x));
    expect(sizes[0]).toBe(2.19);
  });
});

describe('GET /closed-positions', () => {
  it('lists fully reduced positions by realized PnL, most first, 10 by default and up to 50', async () => {
    const alice = await data.get(`/closed-positions?user=${ALICE}`);
    expect(alice.body).toEqual([
      expect.objectContaining({
        asset: asset(m.echo, 0),
        size: 0,
        avgPrice: 0.4,
        totalBought: 8,
        realizedPnl: 1.6,
        percentRealizedPnl: 50,
        curPrice: 0.5,
        title: 'Echo wins?',
      }),
    ]);
    expect(alice.body[0]).not.toHaveProperty('negativeRisk');
    // Bob sold every deposited token (no cost): realized 10, 7, 6, 4.5, 0.25, 0.15; echo he bought back.
    const bob = await data.get(`/closed-positions?user=${BOB}`);
    expect(bob.body.map((p: { realizedPnl: number }) => p.realizedPnl)).toEqual([10, 7, 6, 4.5, 0.25, 0.15]);
    expect(bob.body.every((p: { avgPrice: number; percentRealizedPnl: number }) => p.avgPrice === 0)).toBe(true);
    expect(
      (await data.get(`/closed-positions?user=${BOB}&sortDirection=ASC&limit=2`)).body.map((p: any) => p.realizedPnl),
    ).toEqual([0.15, 0.25]);
    expect(
      (await data.get(`/closed-positions?user=${BOB}&sortBy=TITLE&sortDirection=ASC`)).body.map((p: any) => p.title),
    ).toEqual(['Alpha wins?', 'Bravo wins?', 'Charlie wins?', 'Delta wins?', 'Delta wins?', 'Foxtrot wins?']);
    expect(
      (await data.get(`/closed-positions?user=${BOB}&market=${m.delta.conditionId}&title=delta`)).body,
    ).toHaveLength(2);
    const carol = (query: string) => data.get(`/closed-positions?user=${CAROL}${query}`);
    expect((await carol('')).body).toHaveLength(10);
    expect((await carol('&limit=50')).body).toHaveLength(12);
    expect((await carol('&limit=50&offset=100000')).body).toEqual([]);
    for (const sortBy of ['PRICE', 'AVGPRICE', 'TIMESTAMP', 'realizedpnl'])
      expect((await carol(`&sortBy=${sortBy}&limit=50`)).body, sortBy).toHaveLength(12);
  });
});

describe('GET /holders', () => {
  it('lists 20 holders per token by default, largest first, each with its outcome', async () => {
    const reply = await data.get(`/holders?market=${crowded.conditionId}`);
    expect(reply.body.map((t: { token: string }) => t.token)).toEqual([asset(crowded, 0), asset(crowded, 1)]);
    const top = reply.body[0].holders;
    expect(top.map((h: { amount: number }) => h.amount)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    expect(top[0]).toEqual({
      proxyWallet: address('f18'),
      bio: '',
      asset: asset(crowded, 0),
      pseudonym: '',
      name: '',
      profileImage: '',
      profileImageOptimized: '',
      amount: 25,
      displayUsernamePublic: false,
      outcomeIndex: 0,
    });
    expect(reply.body[1].holders).toEqual([]);
  });

  it('takes a limit up to 500, a minimum balance and several markets', async () => {
    const amounts = async (query: string) =>
      (await data.get(`/holders?market=${crowded.conditionId}${query}`)).body[0].holders.map((h: any) => h.amount);
    expect(await amounts('&limit=500')).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(await amounts('&minBalance=23')).toEqual([25, 24, 23]);
    expect(await amounts('&minBalance=0&limit=3')).toEqual([25, 24, 23]);
    expect(await amounts('&minBalance=1000000')).toEqual([]);
    const two = await data.get(`/holders?market=${m.alpha.conditionId},${crowded.conditionId},0x${'ee'.repeat(32)}`);
    expect(two.body.map((t: { token: string }) => t.token)).toEqual([
      asset(m.alpha, 0),
      asset(m.alpha, 1),
      asset(crowded, 0),
      asset(crowded, 1),
    ]);
    expect(two.body[0].holders.map((h: any) => [h.proxyWallet, h.amount])).toEqual([[ALICE, 30]]);
  });
});

describe('errors', () => {
  const cases: [string, number, string][] = [
    ['/positions', 400, 'missing_field: user'],
    ['/positions?user=', 400, 'missing_field: user'],
    [`/positions?user=${ALICE}&foo=1`, 400, 'unknown_field: foo'],
    [`/positions?user=${ALICE}&Limit=1`, 400, 'unknown_field: Limit'],
    ['/positions?user=0x123', 400, 'invalid_field: user must be a wallet address: 0x and 40 hex digits'],
    [`/positions?user=${ALICE}&limit=501`, 400, 'invalid_field: limit must be a whole number from 0 to 500'],
    [`/positions?user=${ALICE}&limit=ten`, 400, 'invalid_field: limit must be a whole number from 0 to 500'],
    [`/positions?user=${ALICE}&limit=-1`, 400, 'invalid_field: limit must be a whole number from 0 to 500'],
    [`/positions?user=${ALICE}&offset=10001`, 400, 'invalid_field: offset must be a whole number from 0 to 10,000'],
    [`/positions?user=${ALICE}&limit=1&limit=2`, 400, 'invalid_field: limit is given more than once'],
    [
      `/positions?user=${ALICE}&sortBy=SIZE`,
      400,
      'invalid_field: sortBy must be one of CURRENT, INITIAL, TOKENS, CASHPNL, PERCENTPNL, TITLE, RESOLVING, PRICE, AVGPRICE',
    ],
    [`/positions?user=${ALICE}&sortDirection=up`, 400, 'invalid_field: sortDirection must be ASC or DESC'],
    [`/positions?user=${ALICE}&redeemable=yes`, 400, 'invalid_field: redeemable must be true or false'],
    [`/positions?user=${ALICE}&mergeable=1`, 400, 'invalid_field: mergeable must be true or false'],
    [
      `/positions?user=${ALICE}&sizeThreshold=-1`,
      400,
      'invalid_field: sizeThreshold must be a non-negative number of tokens, such as 1 or 0.5',
    ],
    [`/positions?user=${ALICE}&title=${'x'.repeat(101)}`, 400, 'invalid_field: title must be at most 100 characters'],
    [
      `/positions?user=${ALICE}&market=0xzz`,
      400,
      'invalid_field: market must be condition ids (0x and up to 64 hex digits) separated by commas',
    ],
    [`/closed-positions`, 400, 'missing_field: user'],
    [`/closed-positions?user=${ALICE}&limit=51`, 400, 'invalid_field: limit must be a whole number from 0 to 50'],
    [
      `/closed-positions?user=${ALICE}&offset=100001`,
      400,
      'invalid_field: offset must be a whole number from 0 to 100,000',
    ],
    [
      `/closed-positions?user=${ALICE}&sortBy=CURRENT`,
      400,
      'invalid_field: sortBy must be one of REALIZEDPNL, TITLE, PRICE, AVGPRICE, TIMESTAMP',
    ],
    [`/closed-positions?user=${ALICE}&sizeThreshold=1`, 400, 'unknown_field: sizeThreshold'],
    ['/holders', 400, 'missing_field: market'],
    ['/holders?limit=5', 400, 'missing_field: market'],
    [
      `/holders?market=${Array.from({ length: 21 }, (_, i) => `0x${i + 1}`).join(',')},0x1`,
      400,
      'invalid_field: market takes at most 20 condition ids, got 21',
    ],
    ['/holders?market=0xab&limit=501', 400, 'invalid_field: limit must be a whole number from 0 to 500'],
    [
      '/holders?market=0xab&minBalance=lots',
      400,
      'invalid_field: minBalance must be a non-negative number of tokens, such as 1 or 0.5',
    ],
    ['/holders?market=0xab&user=0x1', 400, 'unknown_field: user'],
  ];
  it('answers every bad request with 400 and the contract’s simple shape, naming the parameter', async () => {
    for (const [path, status, error] of cases) {
      const reply = await data.get(path);
      expect([reply.status, reply.body], path).toEqual([status, { error }]);
    }
    expect(await data.get('/nowhere')).toMatchObject({ status: 404, body: { error: 'not found' } });
    expect(await data.get('/')).toMatchObject({ status: 200, body: { data: 'OK' } });
  });

  it('refuses callers outside the allowlist with 401 unauthorized: ip_not_allowlisted; GET / stays open', async () => {
    const socket = join(tmpdir(), `pmx-data-test-${process.pid}.sock`);
    const fenced = await startData({
      sql: db.sql,
      env: { PMX_DATA_ALLOWLIST: '10.0.0.0/8,2001:db8::/32', PMX_DATA_SOCKET: socket },
    });
    try {
      for (const path of [
        `/positions?user=${ALICE}`,
        `/closed-positions?user=${ALICE}`,
        '/holders',
        '/positions?bad=1',
      ])
        expect(await fenced.get(path)).toMatchObject({
          status: 401,
          body: { error: 'unauthorized: ip_not_allowlisted' },
        });
      expect((await fenced.get('/')).status).toBe(200);
      // On the direct port X-Forwarded-For is the caller's own word, and ignored.
      const direct = await fenced.get(`/holders?market=${m.alpha.conditionId}`, { 'x-forwarded-for': '10.20.30.40' });
      expect(direct.status).toBe(401);
      // On the edge's socket, the client is the last X-Forwarded-For entry (the one the edge sets).
      const via = (chain: string) => statusOver(socket, `/holders?market=${m.alpha.conditionId}`, chain);
      expect(await via('10.20.30.40')).toBe(200);
      expect(await via('2001:db8::7')).toBe(200);
      expect(await via('10.0.0.1, 192.0.2.1')).toBe(401);
      expect(await via('11.0.0.1')).toBe(401);
    } finally {
      await fenced.close();
    }
  });
});

/** The status of a GET sent over a Unix socket, as the edge sends it, with its X-Forwarded-For. */
function statusOver(socketPath: string, path: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ socketPath, path, headers: { 'x-forwarded-for': forwardedFor } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe('restart', () => {
  it('keeps the ledger sound after the trades', async () => {
    expect(await checkLedger(db.sql)).toEqual([]);
  });

  it('shows after a restart exactly what it showed live', async () => {
    const paths = [
      ...[ALICE, BOB, CAROL, DAVE].flatMap((user) => [
        `/positions?user=${user}&limit=500&sizeThreshold=0`,
        `/closed-positions?user=${user}&limit=50`,
      ]),
      `/holders?market=${[crowded, ...Object.values(m)].map((x) => x.conditionId).join(',')}&limit=500&minBalance=0`,
    ];
    const live = await Promise.all(paths.map(async (path) => (await data.get(path)).body));
    expect(data.app.projection.stats.snapshots).toBe(1);
    await data.restart();
    expect(await Promise.all(paths.map(async (path) => (await data.get(path)).body))).toEqual(live);
  });

  it('catches up on trades made while its LISTEN connection was down', async () => {
    const alpha = async () =>
      (await data.get(`/positions?user=${ALICE}&market=${m.alpha.conditionId}`)).body[0]?.size as number;
    expect(await alpha()).toBe(30);
    const cut = await db.sql`
      SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
       WHERE datname = current_database() AND query ILIKE 'listen%'`;
    expect(cut.map((row) => row.done)).toContain(true);
    await writer.fund(BOB, m.alpha.tokens[0], 2 * T);
    await writer.batch((ops) =>
      writer.trade(ops, { market: m.alpha, token: 0, seller: BOB, buyer: ALICE, price: 20, size: 2 * T }),
    );
    await data.until(`/positions?user=${ALICE}&market=${m.alpha.conditionId}`, (r) => r.body[0]?.size === 32);
    expect(data.app.projection.stats.snapshots).toBeGreaterThanOrEqual(2);
  });
});

// A market's whole life with four traders, as an operator runs it with `pmx` alone and traders
// move their money through it: deposit → split → trades with transfer, mint and merge matches →
// merge → pause (orders refused, cancels work) → resume → close (resting orders released) →
// resolve → redeem → withdraw. After every step `expectWhole` checks, once ingest has applied
// everything: each address's balances (as GET /balance-allowance shows them) equal its ledger
// balance and the sum of its ledger entries, its allowance is the balance less what its open
// orders could spend, collateral in custody equals deposits − withdrawals, and checkLedger and the
// front end's own invariants find nothing. `beforeCheck` and `between` run around each step's
// checks (the crash variant kills and restarts processes there).
import { expect } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import type { Sql } from '@pmx/db';
import { runCli } from '@pmx/clob/testing';

export const USDC = 1_000_000;

export interface LifecycleSystem {
  /** The front end (stable across the scenario). */
  url: string;
  operatorKey: string;
  sql: Sql;
  /** After each step, before its checks; `step` names it (the crash variant kills processes here). */
  beforeCheck?(step: string): Promise<void>;
  /** After each step's checks. */
  between?(step: string): Promise<void>;
  /** More checks after each step (the in-process variant's view of the front end's state). */
  alsoCheck?(): void;
}

export interface Market {
  conditionId: string;
  yes: string;
  no: string;
}

/** Runs `pmx` with the system's server and operator key; its JSON output, or a throw with what it printed. */
export async function pmx(system: LifecycleSystem, argv: string[]): Promise<any> {
  const lines: string[] = [];
  const code = await runCli(argv, {
    url: system.url,
    operatorKey: system.operatorKey,
    print: (line) => lines.push(line),
  });
  if (code !== 0) throw new Error(`pmx ${argv.join(' ')} exited ${code}: ${lines.join('\n')}`);
  return JSON.parse(lines.at(-1)!);
}

/** `pmx market create` of `market` (outcomes Yes and No, tick 0.01); the market as the server shows it. */
export function pmxCreate(system: LifecycleSystem, market: Market, question: string): Promise<any> {
  const tokens = `${market.yes},${market.no}`;
  return pmx(system, [
    'market',
    'create',
    '--condition-id',
    market.conditionId,
    '--question',
    question,
    '--tokens',
    tokens,
  ]);
}

/** A `pmx` command that must fail: what it printed. */
export async function pmxRefused(system: LifecycleSystem, argv: string[]): Promise<string> {
  const lines: string[] = [];
  const code = await runCli(argv, { url: system.url, operatorKey: system.operatorKey, print: (l) => lines.push(l) });
  expect(code, lines.join('\n')).toBe(1);
  return lines.join('\n');
}

async function operatorState(
  system: LifecycleSystem,
): Promise<{ ready: boolean; shards: { seq: number }[]; invariants: string[] }> {
  const response = await fetch(`${system.url}/operator/state`, {
    headers: { authorization: `Bearer ${system.operatorKey}` },
  });
  return (await response.json()) as { ready: boolean; shards: { seq: number }[]; invariants: string[] };
}

/** Until ingest has applied every event the shards have produced. */
export async function ledgerCaughtUp(system: LifecycleSystem): Promise<void> {
  const state = await operatorState(system);
  expect(state.ready).toBe(true);
  await expect
    .poll(
      async () => {
        const offsets = await system.sql<
          { shard: number; last_seq: string }[]
        >`SELECT shard, last_seq FROM shard_offsets`;
        const applied = new Map(offsets.map((o) => [o.shard, Number(o.last_seq)]));
        return state.shards.every((s, shard) => (applied.get(shard) ?? 0) >= s.seq);
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
}

/** What GET /balance-allowance says a trader holds of an asset: [balance, allowance] in base units. */
async function balanceAllowance(trader: Trader, asset: string): Promise<[bigint, bigint]> {
  const query = asset === 'collateral' ? 'asset_type=COLLATERAL' : `asset_type=CONDITIONAL&token_id=${asset}`;
  const response = await trader.authed('GET', `/balance-allowance?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return [BigInt(response.body.balance), BigInt(response.body.allowance)];
}

/** The invariant of docs/design/money.md after a step, as described at the top of this file. */
export async function expectWhole(system: LifecycleSystem, traders: Trader[], market: Market): Promise<void> {
  await ledgerCaughtUp(system);
  expect(await checkLedger(system.sql)).toEqual([]);
  expect((await operatorState(system)).invariants).toEqual([]);
  system.alsoCheck?.();
  const addresses = traders.map((t) => t.address.toLowerCase());
  const rows = await system.sql<
    { address: string; asset: string; balance: string; entries: string; reserved: string }[]
  >`
    WITH assets AS (SELECT unnest(${['collateral', market.yes, market.no]}::text[]) AS asset),
         holders AS (SELECT unnest(${addresses}::text[]) AS address)
    SELECT h.address, a.asset,
           coalesce((SELECT amount FROM balances b WHERE b.address = h.address AND b.asset = a.asset), 0)::text AS balance,
           coalesce((SELECT sum(delta) FROM ledger_entries e WHERE e.address = h.address AND e.asset = a.asset), 0)::text AS entries,
           coalesce((SELECT ceil(sum(CASE WHEN o.side = 'BUY' THEN (o.size - o.matched) * o.price ELSE o.size - o.matched END))
                       FROM orders o
                      WHERE o.owner = h.address AND o.status = 'live'
                        AND (CASE WHEN o.side = 'BUY' THEN 'collateral' ELSE o.asset_id END) = a.asset), 0)::text AS reserved
      FROM holders h CROSS JOIN assets a`;
  for (const trader of traders) {
    for (const row of rows.filter((r) => r.address === trader.address.toLowerCase())) {
      const [balance, allowance] = await balanceAllowance(trader, row.asset);
      const where = `${row.address} ${row.asset}`;
      expect(String(balance), where).toBe(row.balance);
      expect(row.entries, where).toBe(row.balance);
      expect(String(allowance), where).toBe(String(BigInt(row.balance) - BigInt(row.reserved)));
    }
  }
  const [custody] = await system.sql<{ held: string; locked: string; supplied: string }[]>`
    SELECT (SELECT coalesce(sum(amount), 0) FROM balances WHERE asset = 'collateral')::text AS held,
           (SELECT coalesce(sum(locked), 0) FROM market_collateral)::text AS locked,
           (SELECT coalesce(sum(amount), 0) FROM operator_transfers WHERE asset = 'collateral')::text AS supplied`;
  expect(BigInt(custody!.held) + BigInt(custody!.locked)).toBe(BigInt(custody!.supplied));
}

async function ok(response: { status: number; body: any }): Promise<any> {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Places an order that must be accepted; its answer. */
async function place(trader: Trader, tokenId: string, side: 'BUY' | 'SELL', price: string, size: number) {
  const response = await trader.placeOrder({ tokenId, ...limit(side, price, size) });
  expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: true });
  return response.body as { orderID: string; status: string; tradeIDs: string[] };
}

export interface LifecycleHooks {
  /** Once the market is made, and after its close and its resolution: what the catalog shows. */
  catalog?(market: Market, stage: 'open' | 'closed' | 'resolved'): Promise<void>;
}

/**
 * The scenario. Traders must have API keys on `system.url`; `market` is created here through
 * `pmx market create`. Resolves to the market.
 */
export async function runLifecycle(
  system: LifecycleSystem,
  traders: [Trader, Trader, Trader, Trader],
  market: Market,
  hooks: LifecycleHooks = {},
): Promise<void> {
  const [alice, bob, carol, dave] = traders;
  const step = async (name: string) => {
    await system.beforeCheck?.(name);
    await expectWhole(system, traders, market);
    await system.between?.(name);
  };
  const collateralOf = async (t: Trader) => Number((await balanceAllowance(t, 'collateral'))[0]) / USDC;
  const tokensOf = async (t: Trader) => [
    Number((await balanceAllowance(t, market.yes))[0]) / USDC,
    Number((await balanceAllowance(t, market.no))[0]) / USDC,
  ];

  const created = await pmxCreate(system, market, 'Will the lifecycle test pass?');
  expect(created).toMatchObject({ condition_id: market.conditionId, status: 'active', accepting_orders: true });
  await hooks.catalog?.(market, 'open');
  for (const trader of traders) await pmx(system, ['fund', trader.address, '1000']);
  await step('deposit');

  const split = await ok(
    await alice.authed('POST', '/split', { market: market.conditionId, amount: String(100 * USDC) }),
  );
  expect(split).toMatchObject({
    market: market.conditionId,
    collateral: String(100 * USDC),
    tokens: { [market.yes]: String(100 * USDC), [market.no]: String(100 * USDC) },
    balances: { collateral: { balance: String(900 * USDC), allowance: String(900 * USDC) } },
  });
  await ok(await bob.authed('POST', '/split', { market: market.conditionId, amount: String(50 * USDC) }));
  expect(await tokensOf(bob)).toEqual([50, 50]);
  await step('split');

  // A transfer (Yes for collateral), a mint (Yes and No bought together), a merge (Yes and No sold together).
  await place(alice, market.yes, 'SELL', '0.60', 40);
  expect((await place(carol, market.yes, 'BUY', '0.60', 40)).status).toBe('matched');
  await place(carol, market.yes, 'BUY', '0.55', 20);
  expect((await place(dave, market.no, 'BUY', '0.45', 20)).status).toBe('matched');
  await place(bob, market.yes, 'SELL', '0.48', 10);
  expect((await place(alice, market.no, 'SELL', '0.52', 10)).status).toBe('matched');
  const daveBid = await place(dave, market.yes, 'BUY', '0.30', 30);
  const bobAsk = await place(bob, market.no, 'SELL', '0.90', 5);
  expect([daveBid.status, bobAsk.status]).toEqual(['live', 'live']);
  expect(await collateralOf(alice)).toBe(929.2);
  expect(await collateralOf(carol)).toBe(965);
  await step('trades');

  const merged = await ok(
    await alice.authed('POST', '/merge', { market: market.conditionId, amount: String(20 * USDC) }),
  );
  expect(merged.collateral).toBe(String(20 * USDC));
  expect(await tokensOf(alice)).toEqual([40, 70]);
  expect(await collateralOf(alice)).toBe(949.2);
  await step('merge');

  const paused = await pmx(system, ['market', 'pause', market.conditionId]);
  expect(paused).toMatchObject({ status: 'paused', accepting_orders: false, closed: false });
  const refused = await carol.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.50', 10) });
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({ error: expect.stringMatching(/^market is paused/) });
  expect((await bob.authed('DELETE', '/order', { orderID: bobAsk.orderID })).body).toEqual({
    canceled: [bobAsk.orderID],
    not_canceled: {},
  });
  // Dave's bid rests through the pause.
  const bids = async () =>
    ((await (await fetch(`${system.url}/book?token_id=${market.yes}`)).json()) as { bids: unknown }).bids;
  expect(await bids()).toEqual([{ price: '0.3', size: '30' }]);
  await step('pause');

  expect(await pmx(system, ['market', 'resume', market.conditionId])).toMatchObject({ status: 'active' });
  await step('resume');

  const closed = await pmx(system, ['market', 'close', market.conditionId]);
  expect(closed).toMatchObject({ status: 'closed', closed: true, accepting_orders: false, cancelled_orders: 1 });
  const [daveBalance, daveAllowance] = await balanceAllowance(dave, 'collateral');
  expect(daveAllowance).toBe(daveBalance);
  expect(await bids()).toEqual([]);
  const late = await carol.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.50', 10) });
  expect(late.body).toEqual({ error: 'market is closed: it takes no more orders' });
  await hooks.catalog?.(market, 'closed');
  await step('close');

  const resolved = await pmx(system, ['market', 'resolve', market.conditionId, 'Yes']);
  expect(resolved).toMatchObject({
    status: 'resolved',
    closed: true,
    is_50_50_outcome: false,
    tokens: [
      { token_id: market.yes, winner: true, price: 1 },
      { token_id: market.no, winner: false, price: 0 },
    ],
  });
  await hooks.catalog?.(market, 'resolved');
  await step('resolve');

  const expectedPayout = { alice: 40, bob: 40, carol: 60, dave: 0 };
  for (const [name, trader] of Object.entries({ alice, bob, carol, dave })) {
    const redeemed = await ok(await trader.authed('POST', '/redeem', { market: market.conditionId }));
    expect(redeemed.collateral, name).toBe(String(expectedPayout[name as keyof typeof expectedPayout] * USDC));
    expect(await tokensOf(trader)).toEqual([0, 0]);
  }
  await step('redeem');
  const final = { alice: 989.2, bob: 994.8, carol: 1025, dave: 991 };
  for (const [name, trader] of Object.entries({ alice, bob, carol, dave })) {
    const collateral = await collateralOf(trader);
    expect(collateral, name).toBe(final[name as keyof typeof final]);
    // What each made or lost in the market is its positions' realized PnL, to the base unit.
    const [pnl] = await system.sql<{ pnl: string }[]>`
      SELECT coalesce(sum(realized_pnl), 0)::text AS pnl FROM positions
       WHERE address = ${trader.address.toLowerCase()} AND market = ${market.conditionId}`;
    expect(Number(pnl!.pnl), name).toBe(Math.round((collateral - 1000) * USDC));
  }

  const tooMuch = await pmxRefused(system, ['withdraw', alice.address, '989.200001']);
  expect(tooMuch).toMatch(/not enough available balance: 989200000 of collateral available, 989200001 asked/);
  for (const [name, trader] of Object.entries({ alice, bob, carol, dave }))
    await pmx(system, ['withdraw', trader.address, String(final[name as keyof typeof final])]);
  for (const trader of traders) expect(await collateralOf(trader)).toBe(0);
  await step('withdraw');
}

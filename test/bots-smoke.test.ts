// The bots' smoke run: a small crowd (makers, takers, noise traders, each from its own loopback
// address) trades for a few seconds against a front end with ingest and history running, then
// the end-of-run check must find every fill in the ledger, every balance agreeing and the ledger's
// invariants whole; the report is written and holds its charts. An order whose answer a bot lost
// is looked up and adopted as its answer would have told it; a heartbeat refused re-arms.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BotTrader,
  endOfRunChecks,
  loadBotsOptions,
  runBots,
  RunMetrics,
  spendOf,
  writeBotsRun,
  type BotsOutcome,
  type PlannedOrder,
} from '@pmx/bench/bots';
import { testkitConfig } from '@pmx/testkit';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

let system: ClobWithIngest;
let redis: Redis;
let outcome: BotsOutcome;
const lines: string[] = [];

beforeAll(async () => {
  system = await startClobWithIngest({}, { history: true, edge: true });
  redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
}, 120_000);

afterAll(async () => {
  redis?.disconnect();
  await system?.close();
});

describe('bots smoke run', () => {
  it('a few makers, takers and noise traders trade for a few seconds; every fill, balance and invariant checks out', async () => {
    const { h } = system;
    const options = loadBotsOptions(
      ['--makers', '2', '--takers', '3', '--noise', '2', '--markets', '2', '--seconds', '4', '--taker-rate', '4'],
      { PMX_BOTS_URL: system.url, PMX_OPERATOR_KEY: h.operatorKey },
    );
    const [{ database }] = await h.sql<{ database: string }[]>`SELECT current_database() AS database`;
    outcome = await runBots(
      { ...options, reconcileMs: 700, sampleMs: 400 },
      { sql: h.sql, redis, redisPrefix: h.redisPrefix, database: database!, log: (line) => lines.push(line) },
    );
    const { run } = outcome;
    expect(run.checks.filter((check) => !check.ok)).toEqual([]);
    expect(run.summary.accepted).toBeGreaterThan(20);
    expect(run.summary.fills).toBeGreaterThan(0);
    expect(lines.some((line) => /orders\/s, \d+ fills\/s/.test(line))).toBe(true);
    h.expectConsistent();
  }, 90_000);

  it('the end-of-run check fails on a fill the ledger does not have', async () => {
    const { h } = system;
    const { bots, run, reconciler } = outcome;
    const taker = bots.find((bot) => bot.kind === 'taker')!;
    taker.belief.takerTrades.add('a-trade-the-ledger-never-had');
    const checks = await endOfRunChecks(h.sql, bots, run.markets, reconciler);
    const trades = checks.find((check) => check.name.startsWith('the ledger has exactly'))!;
    expect(trades.ok).toBe(false);
    expect(trades.detail).toContain('trade a-trade-the-ledger-never-had a bot took is not in the ledger');
  });

  it('an order whose answer was lost is looked up and adopted exactly as its answer said; one never placed is dropped', async () => {
    const { bots, run } = outcome;
    const market = run.markets[0]!;
    const maker = bots.find((bot) => bot.kind === 'maker')!;
    const taker = bots.find((bot) => bot.kind === 'taker')!;
    const [resting] = await maker.place([{ market, token: 1, side: 'BUY', cents: 40, tokens: 10, orderType: 'GTC' }]);
    expect(resting?.open).toBe(true);
    // Buys Yes through the No bid: a mint at 0.60, its answer kept aside as if it never came.
    const crossing: PlannedOrder = { market, token: 0, side: 'BUY', cents: 65, tokens: 6, orderType: 'FAK' };
    const { envelope, orderId } = taker.signOrder(crossing);
    const answer = await taker.authed('POST', '/order', 'place', envelope);
    expect(answer?.body).toMatchObject({ success: true, status: 'matched' });
    const lost = taker.signOrder({ ...crossing, tokens: 7 });
    const before = { collateral: taker.belief.balance('collateral'), yes: taker.belief.balance(market.tokens[0]) };
    const signed = { ...crossing, id: orderId, size: 6_000_000 };
    taker.belief.doubt(signed, spendOf(crossing));
    taker.belief.doubt({ ...signed, id: lost.orderId, size: 7_000_000 }, spendOf({ ...crossing, tokens: 7 }));
    await taker.settleDoubts(10_000);

    expect(taker.belief.inDoubt.size).toBe(0);
    expect(taker.belief.orders.has(lost.orderId)).toBe(false);
    expect(taker.belief.orders.get(orderId)).toMatchObject({
      takerMatched: 6_000_000,
      matched: 6_000_000,
      open: false,
    });
    const body = answer!.body as { makingAmount: string; takingAmount: string; tradeIDs: string[] };
    expect(taker.belief.balance('collateral')).toBe(before.collateral - Number(body.makingAmount) * 1_000_000);
    expect(taker.belief.balance(market.tokens[0])).toBe(before.yes + 6_000_000);
    expect(body.tradeIDs.every((id) => taker.belief.takerTrades.has(id))).toBe(true);
    expect(taker.belief.available('collateral')).toBe(taker.belief.balance('collateral'));
    await maker.cancelAll();
  }, 30_000);

  it('a heartbeat refused as not current arms the switch again with ""', async () => {
    const metrics = new RunMetrics();
    const bot = await BotTrader.open('maker', 'rearm', system.url, metrics);
    try {
      const id = await bot.heartbeat('an-id-that-is-not-current');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(metrics.doubts.heartbeatRearms).toBe(1);
      expect(await bot.heartbeat(id)).toBe(id);
    } finally {
      bot.close();
    }
  });

  it('after the look-ups, every fill, balance and invariant still checks out', async () => {
    const { h } = system;
    const { bots, run, reconciler } = outcome;
    const taker = bots.find((bot) => bot.kind === 'taker')!;
    taker.belief.takerTrades.delete('a-trade-the-ledger-never-had');
    // The look-ups' trades and the cancel reach the ledger through ingest: a second or so.
    await vi.waitFor(
      async () => {
        const checks = await endOfRunChecks(h.sql, bots, run.markets, reconciler);
        expect(checks.filter((check) => !check.ok)).toEqual([]);
      },
      { timeout: 15_000, interval: 1000 },
    );
    h.expectConsistent();
  });

  it('writes run.json and a self-contained report.html with its charts', () => {
    const { run } = outcome;
    const dir = mkdtempSync(join(tmpdir(), 'pmx-bots-report-'));
    try {
      const folder = writeBotsRun(run, dir);
      const stored = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8'));
      expect(stored.summary.fills).toBe(run.summary.fills);
      const html = readFileSync(join(folder, 'report.html'), 'utf8');
      expect(html.match(/<svg /g)?.length).toBe(6);
      expect(html).toContain('End-of-run check: <span class="ok">passed</span>');
      expect(html).not.toMatch(/<script|(src|href)="https?:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

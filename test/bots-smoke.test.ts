// The bots' smoke run: a small crowd (makers, takers, noise traders, each from its own loopback
// address) trades for a few seconds against a front end with ingest and history running, then
// the end-of-run check must find every fill in the ledger, every balance agreeing and the ledger's
// invariants whole; the report is written and holds its charts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOfRunChecks, loadBotsOptions, runBots, writeBotsRun, type BotsOutcome } from '@pmx/bench/bots';
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

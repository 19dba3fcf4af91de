// One run of the crowd against a running exchange: markets made and bots funded through the
// operator API, the bots trading until the run's end with a progress line each second (and, in a
// failover run, the active core SIGKILLed at its time), then the stop (cancels), what is still in
// doubt looked up, the drain of the shard queues, the end-of-run check, and what the report needs.

import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Sql } from '@pmx/db';
import { prng } from '../engine/workload.ts';
import { assertSignsCorrectly } from '../clob/signed-orders.ts';
import { COLLATERAL, UNITS, type RunMarket } from './belief.ts';
import { BotTrader, SETTLE_LIMIT_MS, type BotKind } from './bot-trader.ts';
import { killActiveCore } from './core-kill.ts';
import type { BotsOptions } from './config.ts';
import { runMaker, runNoise, runTaker, type Crowd } from './crowd.ts';
import { endOfRunChecks, type CheckResult } from './end-check.ts';
import { ExchangeHttp } from './exchange-http.ts';
import { ExchangeSampler, historyLags, type ExchangeSample } from './exchange-sampler.ts';
import { FairValues } from './fair-values.ts';
import { Reconciler } from './reconciler.ts';
import { RunMetrics, type MetricsSummary, type SecondRow } from './run-metrics.ts';

export interface BotsDeps {
  sql: Sql;
  redis: Redis;
  /** BullMQ prefix of the exchange's shard queues. */
  redisPrefix: string;
  /** The exchange's Postgres database name (its backends count in CPU per process). */
  database: string;
  /** Where progress lines go (default: standard output). */
  log?: (line: string) => void;
}

export interface BotsRun {
  name: string;
  startedAt: string;
  options: Omit<BotsOptions, 'operatorKey'>;
  bots: { makers: number; takers: number; noise: number };
  markets: RunMarket[];
  summary: MetricsSummary;
  series: SecondRow[];
  samples: (ExchangeSample & { historyLagMs: number | null })[];
  checks: CheckResult[];
  disagreements: Record<string, number>;
  /** How long the queues took to drain after the stop, ms. */
  drainMs: number;
}

const MIN_TOKENS = 5;

async function operator(options: BotsOptions, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${options.operatorUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.operatorKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const payload = await response.json().catch(() => ({}));
  if (response.status >= 300) throw new Error(`operator ${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}

/** A decimal token id without leading zeros, as the operator API wants one. */
const tokenId = () => `${1 + Math.floor(Math.random() * 9)}${BigInt(`0x${randomBytes(16).toString('hex')}`)}`;

async function createMarkets(options: BotsOptions, name: string): Promise<RunMarket[]> {
  const markets: RunMarket[] = [];
  for (let i = 0; i < options.markets; i++) {
    const market: RunMarket = { conditionId: `0x${randomBytes(32).toString('hex')}`, tokens: [tokenId(), tokenId()] };
    await operator(options, '/operator/markets', {
      condition_id: market.conditionId,
      question: `Bots run ${name}: market ${i + 1}?`,
      tokens: [
        { token_id: market.tokens[0], outcome: 'Yes' },
        { token_id: market.tokens[1], outcome: 'No' },
      ],
      tick_size: '0.01',
      min_order_size: String(MIN_TOKENS),
    });
    markets.push(market);
  }
  return markets;
}

/** Every bot with its API key and its funds; with `ownAddresses`, bot n trades from 127.0.(1 + n / 250).(2 + n % 250). */
async function openBots(options: BotsOptions, metrics: RunMetrics): Promise<BotTrader[]> {
  const kinds: BotKind[] = [
    ...Array<BotKind>(options.makers).fill('maker'),
    ...Array<BotKind>(options.takers).fill('taker'),
    ...Array<BotKind>(options.noise).fill('noise'),
  ];
  const bots: BotTrader[] = [];
  for (let i = 0; i < kinds.length; i += 8) {
    const opened = await Promise.all(
      kinds.slice(i, i + 8).map((kind, k) => {
        const n = i + k;
        const source = options.ownAddresses ? `127.0.${1 + Math.floor(n / 250)}.${2 + (n % 250)}` : undefined;
        return BotTrader.open(kind, `${kind}-${n}`, options.url, metrics, source);
      }),
    );
    bots.push(...opened);
  }
  const amount = options.funds * UNITS;
  for (const bot of bots) {
    await operator(options, '/operator/deposit', {
      address: bot.address,
      asset: COLLATERAL,
      amount: String(amount),
      idempotency_key: `bots-${randomUUID()}`,
    });
    bot.belief.deposit(COLLATERAL, amount);
  }
  return bots;
}

function runBot(bot: BotTrader, crowd: Crowd, index: number): Promise<void> {
  if (bot.kind === 'maker') return runMaker(bot, crowd);
  if (bot.kind === 'taker') return runTaker(bot, crowd);
  return runNoise(bot, crowd, (index % 2) as 0 | 1);
}

/** Reads every bot's orders (those that keep no listing of their own) and trades, round after round. */
function reconcileLoop(bots: BotTrader[], reconciler: Reconciler, crowd: Crowd, periodMs: number): Promise<void> {
  return (async () => {
    while (Date.now() < crowd.stopAt) {
      const round = Date.now();
      for (const bot of bots) {
        if (Date.now() >= crowd.stopAt) break;
        if (bot.kind !== 'maker') await reconciler.orders(bot, crowd.stopAt);
        await reconciler.trades(bot, false, crowd.stopAt);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, periodMs - (Date.now() - round))));
    }
  })();
}

/** After the stop: each bot settles what is still in doubt, and cancels what that found resting. */
async function settleAfterStop(bots: readonly BotTrader[]): Promise<void> {
  await Promise.all(
    bots.map(async (bot) => {
      if (bot.belief.inDoubt.size > 0 || bot.belief.cancelsInDoubt.size > 0) await bot.settleDoubts(SETTLE_LIMIT_MS);
      if (bot.belief.open.size > 0) await bot.cancel([...bot.belief.open.keys()]);
    }),
  );
}

/** At `atSec` into the run, SIGKILLs the active core (--kill-active-core-at); logs what it did. */
function scheduleKill(options: BotsOptions, metrics: RunMetrics, log: (line: string) => void): () => void {
  if (options.killActiveCoreAt === undefined) return () => {};
  const timer = setTimeout(() => {
    killActiveCore(options.coreUrls).then(
      (kill) => {
        metrics.killed(kill.port, kill.pid, kill.at);
        log(`bots: SIGKILL sent to the active core (pid ${kill.pid}, port ${kill.port})`);
      },
      (error: unknown) => log(`bots: the core kill failed: ${(error as Error).message}`),
    );
  }, options.killActiveCoreAt * 1000);
  return () => clearTimeout(timer);
}

/** Waits until no shard batch is left to apply (at most `limitMs`); returns how long that took. */
async function drain(sampler: ExchangeSampler, limitMs: number): Promise<number> {
  const started = Date.now();
  await sampler.discoverQueues();
  while (Date.now() - started < limitMs) {
    if ((await sampler.queueState()).depth === 0) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the shard queues did not drain within ${limitMs / 1000} s`);
}

/** A finished run: its figures for the report, and the bots and reconciler a caller may check again. */
export interface BotsOutcome {
  run: BotsRun;
  bots: BotTrader[];
  reconciler: Reconciler;
}

export async function runBots(options: BotsOptions, deps: BotsDeps): Promise<BotsOutcome> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const name = options.name ?? `bots-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
  const metrics = new RunMetrics();
  const markets = await createMarkets(options, name);
  const bots = await openBots(options, metrics);
  if (bots.length > 0) assertSignsCorrectly(bots[0]!.credentials, markets[0]!.tokens[0]);
  log(
    `bots: ${bots.length} bots funded with ${options.funds} USDC each on ${markets.length} new markets at ${options.url}`,
  );
  const random = prng(options.seed);
  const reconciler = new Reconciler();
  const readHttp = new ExchangeHttp(options.url, options.ownAddresses ? '127.0.0.254' : undefined, 2);
  const sampler = new ExchangeSampler({ ...deps, prefix: deps.redisPrefix, http: readHttp, markets });
  await sampler.discoverQueues();
  const crowd: Crowd = {
    markets,
    fair: new FairValues(markets.length, options.drift, random),
    reconciler,
    random,
    options: { ...options, minTokens: MIN_TOKENS },
    stopAt: Date.now() + options.seconds * 1000,
  };
  const startedAt = new Date().toISOString();
  metrics.start();
  const cancelKill = scheduleKill(options, metrics, log);
  sampler.start(options.sampleMs);
  const progress = setInterval(() => {
    const last = sampler.samples.at(-1);
    const queue = last === undefined ? '' : `, queue ${last.queueDepth} (ledger lag ${last.ledgerLagMs} ms)`;
    log(metrics.progressLine() + queue);
  }, 1000);
  try {
    await Promise.all([
      ...bots.map((bot, i) => runBot(bot, crowd, i)),
      reconcileLoop(bots, reconciler, crowd, options.reconcileMs),
    ]);
  } finally {
    cancelKill();
    clearInterval(progress);
    metrics.stop();
  }
  await settleAfterStop(bots);
  const drainMs = await drain(sampler, 120_000);
  // The history catches up too (the sampler goes on a little while after the drain).
  await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 3 * options.sampleMs)));
  await sampler.close();
  readHttp.close();
  for (const bot of bots) await reconciler.orders(bot);
  const checks = await endOfRunChecks(deps.sql, bots, markets, reconciler);
  for (const bot of bots) bot.close();
  const lags = historyLags(sampler.samples);
  const { operatorKey: _secret, ...shown } = options;
  const run: BotsRun = {
    name,
    startedAt,
    options: shown,
    bots: { makers: options.makers, takers: options.takers, noise: options.noise },
    markets,
    summary: metrics.summary(),
    series: metrics.series(),
    samples: sampler.samples.map((sample, i) => ({ ...sample, historyLagMs: lags[i]! })),
    checks,
    disagreements: Object.fromEntries(reconciler.disagreements),
    drainMs,
  };
  return { run, bots, reconciler };
}

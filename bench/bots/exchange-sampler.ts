// Samples how the exchange holds up while the crowd trades, once a period: the shard queues'
// depth and the age of their oldest unapplied batch (the ledger's lag behind the acks), the newest
// trade in the ledger (Postgres) and in the history (ClickHouse, through the public GET /trades),
// and CPU per process.

import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Sql } from '@pmx/db';
import type { RunMarket } from './belief.ts';
import type { ExchangeHttp } from './exchange-http.ts';
import { ProcessCpu } from './process-cpu.ts';

export interface ExchangeSample {
  /** Seconds since the run started. */
  t: number;
  /** Batches of events queued and not yet applied to the ledger, all shards. */
  queueDepth: number;
  /** Age of the oldest batch not yet applied (0 when none waits), ms. */
  ledgerLagMs: number;
  /** Match time of the newest trade of the run's markets in the ledger / in the history, ms. */
  ledgerNewestMs: number | null;
  historyNewestMs: number | null;
  /** % of one core per process group. */
  cpu: Record<string, number>;
}

export interface SamplerDeps {
  redis: Redis;
  /** The BullMQ prefix of the shard queues (PMX_REDIS_PREFIX). */
  prefix: string;
  sql: Sql;
  /** The run's Postgres database, whose backends count as the exchange's. */
  database: string;
  /** Public reads of the history (GET /trades). */
  http: ExchangeHttp;
  markets: RunMarket[];
}

export class ExchangeSampler {
  readonly samples: ExchangeSample[] = [];
  private queues: Queue[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly cpu: ProcessCpu;
  private startedAt = Date.now();

  constructor(private readonly deps: SamplerDeps) {
    this.cpu = new ProcessCpu(deps.database);
  }

  /** The shard queues there are (their BullMQ meta keys under the prefix). */
  async discoverQueues(): Promise<string[]> {
    const names = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await this.deps.redis.scan(
        cursor,
        'MATCH',
        `${this.deps.prefix}:shard-*:meta`,
        'COUNT',
        1000,
      );
      cursor = next;
      for (const key of keys) names.add(key.slice(this.deps.prefix.length + 1, -':meta'.length));
    } while (cursor !== '0');
    this.queues = [...names]
      .sort()
      .map(
        (name) => new Queue(name, { connection: this.deps.redis, prefix: this.deps.prefix, skipVersionCheck: true }),
      );
    return [...names];
  }

  start(periodMs: number): void {
    this.startedAt = Date.now();
    this.cpu.sample();
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.sample()).catch(() => undefined);
    }, periodMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async close(): Promise<void> {
    await this.stop();
    await Promise.all(this.queues.map((queue) => queue.close()));
  }

  /** Batches waiting or being applied, and how old the oldest of them is. */
  async queueState(): Promise<{ depth: number; oldestMs: number }> {
    let depth = 0;
    let oldest = Infinity;
    for (const queue of this.queues) {
      const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
      depth += Object.values(counts).reduce((a, b) => a + b, 0);
      for (const state of ['active', 'wait'] as const) {
        const [job] = await queue.getJobs([state], 0, 0, true);
        if (job !== undefined) oldest = Math.min(oldest, job.timestamp);
      }
    }
    return { depth, oldestMs: oldest === Infinity ? 0 : Date.now() - oldest };
  }

  private async sample(): Promise<void> {
    const t = (Date.now() - this.startedAt) / 1000;
    const [queue, ledgerNewestMs, historyNewestMs] = await Promise.all([
      this.queueState(),
      this.ledgerNewest(),
      this.historyNewest(),
    ]);
    this.samples.push({
      t: Number(t.toFixed(2)),
      queueDepth: queue.depth,
      ledgerLagMs: queue.oldestMs,
      ledgerNewestMs,
      historyNewestMs,
      cpu: this.cpu.sample(),
    });
  }

  private async ledgerNewest(): Promise<number | null> {
    const markets = this.deps.markets.map((m) => m.conditionId);
    const [row] = await this.deps.sql<{ ms: string | null }[]>`
      SELECT floor(extract(epoch FROM max(match_time)) * 1000)::bigint::text AS ms FROM trades WHERE market = ANY(${markets})`;
    return row?.ms == null ? null : Number(row.ms);
  }

  /** The newest trade's time over the run's markets in the history; null where history is not served. */
  private async historyNewest(): Promise<number | null> {
    let newest: number | null = null;
    for (const market of this.deps.markets) {
      const answer = await this.deps.http
        .send('GET', `/trades?market=${market.conditionId}&limit=1`)
        .catch(() => undefined);
      if (answer?.status !== 200 || !Array.isArray(answer.body)) return null;
      const [trade] = answer.body as { match_time: string }[];
      if (trade !== undefined) newest = Math.max(newest ?? 0, Date.parse(trade.match_time));
    }
    return newest;
  }
}

/**
 * For each sample: how far the history was behind the ledger, as the match time of the ledger's
 * newest trade less the history's (ms; 0 when it holds it, or before the first trade). With
 * trades flowing, that is how long a trade waits after the ledger before the history has it.
 */
export function historyLags(samples: readonly ExchangeSample[]): (number | null)[] {
  return samples.map(({ ledgerNewestMs: ledger, historyNewestMs: history }) => {
    if (ledger === null) return 0;
    if (history === null) return null;
    return Math.max(0, ledger - history);
  });
}

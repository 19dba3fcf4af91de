// Ingest bench: real engine events (orders, transfers, mints, merges, cancels) cut into shard
// batches of ~100–500 events, pushed through the real BullMQ queues into Postgres, and copied
// into embedded ClickHouse. Three phases, each on a fresh throwaway database and Redis prefix:
//   1. ledger backlog: every batch is queued first, then ingest drains it (events/s into Postgres);
//   2. history copy: the committed backlog copied into ClickHouse (events/s and rows/s);
//   3. paced: batches arrive at a steady rate with ingest and the history copy running, and each
//      batch's lag is measured from enqueue to committed (ledger) and to in ClickHouse (history).
// pnpm --filter @pmx/bench ingest [--events 200000] [--batch 250] [--shards 2] [--rate 7000] [--seconds 10]
// (7,000 events/s ≈ the front end's measured ceiling of ~3,300 orders/s at ~2 events per order.)

import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { openClickHouse, type ClickHouseClient } from '@pmx/clickhouse';
import { connectPostgres, type Sql } from '@pmx/db';
import { SHARD_JOB_NAME, shardQueueName, type ShardJob } from '@pmx/events';
import { startIngest } from '@pmx/ingest';
import { checkLedger, HistoryFollower } from '@pmx/ledger';
import { EngineShard, insertMarket, testMarket, TOKEN, type TestMarket } from '@pmx/ingest/testing';
import { OrderType, Side } from '@pmx/matching';
import { cleanupRedisPrefix, createTempDir, createTestDatabase, testkitConfig, testRedisPrefix } from '@pmx/testkit';
import { percentiles, writeReport, type Row } from '../report.ts';

const { values: args } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'), // pnpm passes the `--` through
  options: {
    events: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '250' },
    shards: { type: 'string', default: '2' },
    markets: { type: 'string', default: '20' },
    traders: { type: 'string', default: '200' },
    rate: { type: 'string', default: '7000' },
    seconds: { type: 'string', default: '10' },
  },
});
const EVENTS = Number(args.events);
const BATCH = Number(args.batch);
const SHARDS = Number(args.shards);
const MARKETS = Number(args.markets);
const TRADERS = Number(args.traders);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
// Each trader's starting balance of every asset: as much as fits, up to 10^9 tokens, while the
// supplies stay below 2^53 base units together (RiskBook.canCredit): in one shard's risk book,
// collateral, the pairs of each of its markets (merges release collateral) and the largest token
// supply; the ledger gets every shard's funds (SHARDS times), so the bound takes that too.
const PER_SHARD_MARKETS = Math.ceil(MARKETS / SHARDS);
const FUNDS =
  Math.min(1_000_000_000, Math.floor(Number.MAX_SAFE_INTEGER / (TRADERS * SHARDS * (2 + PER_SHARD_MARKETS)) / TOKEN)) *
  TOKEN;

interface Workload {
  markets: TestMarket[];
  traders: string[];
  /** In the order the shards produced them (each shard's in sequence). */
  jobs: ShardJob[];
}

/** A random order flow around the middle of each book, cut into batches of about BATCH events. */
function generate(totalEvents: number, seed: number): Workload {
  let state = seed;
  const random = (n: number): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const markets = Array.from({ length: MARKETS }, (_, i) => testMarket(`bench-${seed}-${i}`));
  const traders = Array.from({ length: TRADERS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  const shards = Array.from({ length: SHARDS }, (_, k) => new EngineShard(k));
  markets.forEach((market, i) => shards[i % SHARDS]!.addMarket(market));
  for (const shard of shards) {
    for (const trader of traders) {
      shard.risk.credit(trader, 'collateral', FUNDS);
      for (const market of markets) for (const token of market.tokens) shard.risk.credit(trader, token, FUNDS);
    }
  }
  const jobs: ShardJob[] = [];
  const live: string[][] = shards.map(() => []);
  let events = 0;
  let order = 0;
  let now = Date.now();
  while (events < totalEvents) {
    const k = random(SHARDS);
    const shard = shards[k]!;
    const mine = markets.filter((_, i) => i % SHARDS === k);
    const job = shard.batch(now++, (ops) => {
      for (let produced = 0; produced < BATCH;) {
        if (live[k]!.length > 50 && random(4) === 0) {
          const victim = live[k]!.splice(random(live[k]!.length), 1)[0]!;
          if (shard.isOpen(victim) && ops.cancel(victim)) produced++;
          continue;
        }
        const id = `o${++order}`;
        const market = mine[random(mine.length)]!;
        const result = ops.place({
          id,
          owner: traders[random(traders.length)]!,
          market,
          token: random(2) as 0 | 1,
          side: random(2) === 0 ? Side.BUY : Side.SELL,
          price: 45 + random(11),
          size: (1 + random(20)) * 10 * 10_000,
          type: random(5) === 0 ? OrderType.FAK : OrderType.GTC,
        });
        if (result.ok) {
          produced += result.status === 'live' ? 1 : 2;
          if (result.status === 'live') live[k]!.push(id);
        }
      }
    });
    if (job !== null) {
      jobs.push(job);
      events += job.events.length;
    }
  }
  return { markets, traders, jobs };
}

/** Markets and deposits as the operator would create them (deposits through the ledger trigger). */
async function prepare(sql: Sql, workload: Pick<Workload, 'markets' | 'traders'>): Promise<void> {
  for (const market of workload.markets) await insertMarket(sql, market);
  const assets = ['collateral', ...workload.markets.flatMap((m) => m.tokens)];
  for (const asset of assets) {
    await sql`INSERT INTO operator_transfers (address, asset, amount) SELECT unnest(${`{${workload.traders.join(',')}}`}::text[]), ${asset}, ${String(FUNDS * SHARDS)}::numeric`;
  }
}

function count(jobs: ShardJob[]): { events: number; batches: number } {
  return { events: jobs.reduce((n, j) => n + j.events.length, 0), batches: jobs.length };
}

async function offsetsReached(sql: Sql, jobs: ShardJob[]): Promise<boolean> {
  const rows = await sql<{ shard: number; last_seq: string }[]>`SELECT shard, last_seq FROM shard_offsets`;
  const at = new Map(rows.map((r) => [r.shard, Number(r.last_seq)]));
  return jobs.every((job) => (at.get(job.shard) ?? 0) >= job.toSeq);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

const ms = (x: number): string => x.toFixed(1);

/** What every phase shares: one throwaway database, chdb directory and Redis prefix. */
interface Rig {
  sql: Sql;
  ch: ClickHouseClient;
  redis: Redis;
  bullPrefix: string;
  enqueue: (job: ShardJob) => Promise<unknown>;
  rows: Row[];
  figures: Record<string, number | string | boolean>;
}

/** 1. Ledger: every batch queued first, then ingest (without history) drains the queues. */
async function drainBacklog(rig: Rig, backlog: ShardJob[]): Promise<void> {
  const b = count(backlog);
  for (const job of backlog) await rig.enqueue(job);
  const started = performance.now();
  const ingest = await startIngest({ sql: rig.sql, redis: rig.redis, prefix: rig.bullPrefix, shards: SHARDS });
  await until(() => offsetsReached(rig.sql, backlog));
  const seconds = (performance.now() - started) / 1000;
  await ingest.close();
  const [rows] = await rig.sql<{ trades: number; fills: number; entries: number }[]>`
    SELECT (SELECT count(*) FROM trades)::int AS trades, (SELECT count(*) FROM trade_fills)::int AS fills, (SELECT count(*) FROM ledger_entries)::int AS entries`;
  rig.rows.push({
    phase: 'ledger: drain backlog → Postgres',
    batches: b.batches,
    events: b.events,
    seconds: seconds.toFixed(2),
    'events/s': Math.round(b.events / seconds),
    'batches/s': Math.round(b.batches / seconds),
  });
  Object.assign(rig.figures, {
    ledgerEventsPerSecond: Math.round(b.events / seconds),
    backlogTrades: rows!.trades,
    backlogFills: rows!.fills,
    backlogLedgerEntries: rows!.entries,
  });
}

/** 2. History: the committed backlog copied from Postgres into ClickHouse. */
async function copyHistory(rig: Rig, backlog: ShardJob[]): Promise<void> {
  const b = count(backlog);
  const follower = new HistoryFollower({ sql: rig.sql, ch: rig.ch, flushIntervalMs: 60_000 });
  await follower.start();
  const started = performance.now();
  await follower.catchUp();
  const seconds = (performance.now() - started) / 1000;
  await follower.close();
  const result = await rig.ch.query({
    query: 'SELECT (SELECT count() FROM trades) AS trades, (SELECT count() FROM price_points) AS points',
    format: 'JSONEachRow',
  });
  const [copied] = await result.json<{ trades: string; points: string }>();
  const chRows = Number(copied!.trades) + Number(copied!.points);
  rig.rows.push({
    phase: 'history: backlog → ClickHouse',
    batches: b.batches,
    events: b.events,
    seconds: seconds.toFixed(2),
    'events/s': Math.round(b.events / seconds),
    'rows/s': Math.round(chRows / seconds),
  });
  Object.assign(rig.figures, {
    historyEventsPerSecond: Math.round(b.events / seconds),
    historyRowsPerSecond: Math.round(chRows / seconds),
  });
}

/** 3. Paced: batches arrive at RATE events/s with ledger and history running; lag per batch. */
async function pacedLag(rig: Rig, paced: ShardJob[]): Promise<void> {
  const enqueued = new Map<string, number>();
  const ledgerLag: number[] = [];
  const historyLag: number[] = [];
  const pendingHistory: { shard: number; toSeq: number; enqueuedAt: number }[] = [];
  const ingest = await startIngest({
    sql: rig.sql,
    ch: rig.ch,
    redis: rig.redis,
    prefix: rig.bullPrefix,
    shards: SHARDS,
    history: { flushIntervalMs: 100 },
    onCommitted: (batch) => {
      if (batch.replay) return;
      const at = enqueued.get(`${batch.shard}:${batch.toSeq}`) ?? batch.enqueuedAt;
      ledgerLag.push(batch.committedAt - at);
      pendingHistory.push({ shard: batch.shard, toSeq: batch.toSeq, enqueuedAt: at });
    },
    onHistoryFlushed: (shard, seq, at) => {
      for (let i = pendingHistory.length - 1; i >= 0; i--) {
        const p = pendingHistory[i]!;
        if (p.shard === shard && p.toSeq <= seq) {
          historyLag.push(at - p.enqueuedAt);
          pendingHistory.splice(i, 1);
        }
      }
    },
  });
  const p = count(paced);
  const started = performance.now();
  const startedAt = Date.now();
  let sent = 0;
  for (const job of paced) {
    const dueMs = (sent / RATE) * 1000;
    const wait = dueMs - (performance.now() - started);
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // The lag runs from when the batch was due, not when this loop (sharing its event loop with
    // ingest) got round to it: a late enqueue counts against ingest, not hidden.
    enqueued.set(`${job.shard}:${job.toSeq}`, startedAt + dueMs);
    await rig.enqueue(job);
    sent += job.events.length;
  }
  await until(() => offsetsReached(rig.sql, paced));
  await ingest.history!.catchUp();
  await until(async () => pendingHistory.length === 0);
  const seconds = (performance.now() - started) / 1000;
  await ingest.close();
  const [l50, l90, l99, lMax] = percentiles(Float64Array.from(ledgerLag), [50, 90, 99, 100]);
  const [h50, h90, h99, hMax] = percentiles(Float64Array.from(historyLag), [50, 90, 99, 100]);
  rig.rows.push({
    phase: `paced ${RATE} events/s: ledger lag (ms)`,
    batches: p.batches,
    events: p.events,
    p50: ms(l50!),
    p90: ms(l90!),
    p99: ms(l99!),
    max: ms(lMax!),
  });
  rig.rows.push({
    phase: `paced ${RATE} events/s: history lag (ms)`,
    batches: p.batches,
    events: p.events,
    p50: ms(h50!),
    p90: ms(h90!),
    p99: ms(h99!),
    max: ms(hMax!),
  });
  Object.assign(rig.figures, {
    pacedEventsPerSecond: Math.round(p.events / seconds),
    ledgerLagP99Ms: Number(ms(l99!)),
    historyLagP99Ms: Number(ms(h99!)),
    meetsLedgerLagGoal: l99! < 1000,
    meetsHistoryLagGoal: h99! < 2000,
  });
}

async function main(): Promise<void> {
  console.log(
    `ingest bench: ${EVENTS} events in batches of ~${BATCH}, ${SHARDS} shards, ${MARKETS} markets, ${TRADERS} traders`,
  );
  // One flow, so that the paced batches continue each shard's sequence after the backlog's.
  const workload = generate(EVENTS + RATE * SECONDS, 1);
  let split = 0;
  for (let events = 0; events < EVENTS && split < workload.jobs.length; split++)
    events += workload.jobs[split]!.events.length;
  const db = await createTestDatabase();
  const dir = await createTempDir('pmx-bench-ingest-');
  const prefix = testRedisPrefix();
  const redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
  const bullPrefix = prefix.slice(0, -1);
  const queues = Array.from(
    { length: SHARDS },
    (_, k) => new Queue<ShardJob>(shardQueueName(k), { connection: redis, prefix: bullPrefix }),
  );
  const rig: Rig = {
    sql: connectPostgres(db.url, { max: SHARDS + 6 }),
    ch: openClickHouse({ path: dir.path }),
    redis,
    bullPrefix,
    enqueue: (job) => queues[job.shard]!.add(SHARD_JOB_NAME, job, { removeOnComplete: true, removeOnFail: false }),
    rows: [],
    figures: {},
  };
  try {
    await prepare(rig.sql, workload);
    await drainBacklog(rig, workload.jobs.slice(0, split));
    await copyHistory(rig, workload.jobs.slice(0, split));
    await pacedLag(rig, workload.jobs.slice(split));
    Object.assign(rig.figures, {
      ledgerSound: (await checkLedger(rig.sql)).length === 0,
      batchSize: BATCH,
      shards: SHARDS,
    });
    writeReport({
      bench: 'ingest',
      goal: 'ledger lag p99 < 1 s and history lag p99 < 2 s; events/s into Postgres and into ClickHouse',
      rows: rig.rows,
      figures: rig.figures,
    });
  } finally {
    for (const queue of queues) await queue.close();
    redis.disconnect();
    const plain = new Redis(testkitConfig.redisUrl);
    await cleanupRedisPrefix(plain, prefix);
    plain.disconnect();
    await rig.ch.close();
    await dir.remove();
    await rig.sql.end({ timeout: 1 });
    await db.drop();
  }
}

await main();

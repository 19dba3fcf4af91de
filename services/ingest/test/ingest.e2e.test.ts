// Ingest end to end with real Postgres, Redis/BullMQ and embedded ClickHouse: shard jobs made
// by the real engine go into the shard queues as the front end adds them; ingest writes the
// ledger (compared with the RiskBook fed the same events), replays are no-ops, gaps fail loudly
// and heal once the missing batch appears, a restart resumes, and the history reaches ClickHouse.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouse, type ClickHouseClient } from '@pmx/clickhouse';
import { connectPostgres, type Sql } from '@pmx/db';
import { OrderType, Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import {
  cleanupRedisPrefix,
  createTempDir,
  createTestDatabase,
  testkitConfig,
  testRedisPrefix,
  type TempDir,
  type TestDatabase,
} from '@pmx/testkit';
import { startIngest, type Ingest } from '../src/ingest.ts';
import type { CommittedBatch } from '../src/queue/shard-consumer.ts';
import { candles } from '@pmx/ledger';
import { checkLedger } from '@pmx/ledger';
import { priceHistory } from '@pmx/ledger';
import { recentTrades } from '@pmx/ledger';
import { listTrades } from '@pmx/ledger';
import { SHARD_JOB_NAME, shardQueueName, transactionHash, type ShardJob } from '@pmx/events';
import { EngineShard } from '../src/testing/engine-shard.ts';
import { eventually } from '@pmx/testkit';
import { deposit, insertMarket, testMarket, TOKEN } from '../src/testing/ledger-fixtures.ts';

const prefix = testRedisPrefix();
const bullPrefix = prefix.slice(0, -1);
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % 3_600_000);
const A = testMarket('e2e-a');
const B = testMarket('e2e-b', '0.001');

let db: TestDatabase;
let sql: Sql;
let dir: TempDir;
let ch: ClickHouseClient;
let redis: Redis;
let plain: Redis;
let ingest: Ingest;
const queues: Queue<ShardJob>[] = [];
const shards = [new EngineShard(0), new EngineShard(1)];
const committed: CommittedBatch[] = [];
const logs: string[] = [];

function start(): Promise<Ingest> {
  return startIngest({
    sql,
    ch,
    redis,
    prefix: bullPrefix,
    shards: 2,
    healIntervalMs: 100,
    history: { flushIntervalMs: 50 },
    onCommitted: (batch) => committed.push(batch),
    log: (message) => logs.push(message),
  });
}

/** Enqueued exactly as the front end's shard thread does it. */
async function enqueue(job: ShardJob): Promise<void> {
  await queues[job.shard]!.add(SHARD_JOB_NAME, job, { removeOnComplete: true, removeOnFail: false });
}

async function offset(shard: number): Promise<number> {
  const [row] = await sql<{ last_seq: string }[]>`SELECT last_seq FROM shard_offsets WHERE shard = ${shard}`;
  return row === undefined ? 0 : Number(row.last_seq);
}

function batch(shard: number, now: number, run: Parameters<EngineShard['batch']>[1]): ShardJob {
  const job = shards[shard]!.batch(T0 + now, run);
  if (job === null) throw new Error('no events');
  return job;
}

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connectPostgres(db.url, { max: 8 });
  dir = await createTempDir('pmx-ingest-e2e-');
  ch = openClickHouse({ path: dir.path });
  redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
  plain = new Redis(testkitConfig.redisUrl);
  for (let k = 0; k < 2; k++)
    queues.push(new Queue<ShardJob>(shardQueueName(k), { connection: redis, prefix: bullPrefix }));
  await insertMarket(sql, A, shards[0]);
  await insertMarket(sql, B, shards[1]);
  for (const who of ['alice', 'bob', 'dave']) await deposit(sql, who, COLLATERAL, 1000 * TOKEN, shards[0]);
  await deposit(sql, 'carol', COLLATERAL, 500 * TOKEN, shards[0]);
  await deposit(sql, 'carol', A.tokens[0], 100 * TOKEN, shards[0]);
  for (const who of ['erin', 'frank']) await deposit(sql, who, COLLATERAL, 1000 * TOKEN, shards[1]);
  ingest = await start();
});

afterAll(async () => {
  // Each step runs whatever the ones before did: a failed close must not leave the database,
  // the Redis prefix or the ClickHouse folder behind.
  const steps = [
    () => ingest?.close(),
    async () => {
      for (const queue of queues) await queue.close();
    },
    () => redis?.disconnect(),
    () => cleanupRedisPrefix(plain, prefix),
    () => plain?.disconnect(),
    () => ch?.close(),
    () => dir?.remove(),
    () => sql?.end({ timeout: 1 }),
    () => db?.drop(),
  ];
  const failures: unknown[] = [];
  for (const step of steps)
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0];
});

const scenario: ShardJob[] = [];

describe('ingest from the shard queues', () => {
  it("applies each shard's batches in order and confirms every trade", async () => {
    scenario.push(
      batch(0, 1_000, (ops) => {
        ops.place({
          id: 'alice-buy-yes',
          owner: 'alice',
          market: A,
          token: 0,
          side: Side.BUY,
          price: 40,
          size: 100 * TOKEN,
        });
        ops.place({ id: 'bob-buy-no', owner: 'bob', market: A, token: 1, side: Side.BUY, price: 62, size: 50 * TOKEN }); // mint
      }),
      batch(0, 61_000, (ops) => {
        ops.place({
          id: 'carol-sell-yes',
          owner: 'carol',
          market: A,
          token: 0,
          side: Side.SELL,
          price: 45,
          size: 30 * TOKEN,
        });
        ops.place({
          id: 'dave-fak',
          owner: 'dave',
          market: A,
          token: 0,
          side: Side.BUY,
          price: 50,
          size: 40 * TOKEN,
          type: OrderType.FAK,
        }); // transfer
        ops.place({
          id: 'carol-ask',
          owner: 'carol',
          market: A,
          token: 0,
          side: Side.SELL,
          price: 80,
          size: 10 * TOKEN,
        });
      }),
      batch(0, 121_000, (ops) => {
        ops.place({
          id: 'alice-sell-yes',
          owner: 'alice',
          market: A,
          token: 0,
          side: Side.SELL,
          price: 70,
          size: 20 * TOKEN,
        });
        ops.place({
          id: 'bob-sell-no',
          owner: 'bob',
          market: A,
          token: 1,
          side: Side.SELL,
          price: 25,
          size: 20 * TOKEN,
        }); // merge
      }),
      batch(0, 181_000, (ops) => ops.cancel('alice-buy-yes')),
      batch(0, 182_000, (ops) =>
        ops.place({
          id: 'dave-gtd',
          owner: 'dave',
          market: A,
          token: 1,
          side: Side.BUY,
          price: 30,
          size: 10 * TOKEN,
          type: OrderType.GTD,
          expiresAt: T0 + 183_000,
        }),
      ),
      batch(0, 184_000, (ops) => ops.expire()),
      batch(1, 1_000, (ops) => {
        ops.place({
          id: 'erin-buy-no',
          owner: 'erin',
          market: B,
          token: 1,
          side: Side.BUY,
          price: 333,
          size: 3 * TOKEN,
        });
        ops.place({
          id: 'frank-buy',
          owner: 'frank',
          market: B,
          token: 0,
          side: Side.BUY,
          price: 700,
          size: 2 * TOKEN,
        }); // mint at 0.667
      }),
    );
    for (const job of scenario) await enqueue(job);
    await eventually(
      async () => (await offset(0)) === scenario[5]!.toSeq && (await offset(1)) === scenario[6]!.toSeq,
      15_000,
      'both shards applied',
    );

    expect(await sql`SELECT order_id, status, matched::text FROM orders WHERE shard = 0 ORDER BY accepted_seq`).toEqual(
      [
        { order_id: 'alice-buy-yes', status: 'cancelled', matched: '50000000' },
        { order_id: 'bob-buy-no', status: 'matched', matched: '50000000' },
        { order_id: 'carol-sell-yes', status: 'matched', matched: '30000000' },
        { order_id: 'dave-fak', status: 'unmatched', matched: '30000000' },
        { order_id: 'carol-ask', status: 'live', matched: '0' },
        { order_id: 'alice-sell-yes', status: 'matched', matched: '20000000' },
        { order_id: 'bob-sell-no', status: 'matched', matched: '20000000' },
        { order_id: 'dave-gtd', status: 'expired', matched: '0' },
      ],
    );
    expect(
      await sql`SELECT t.status, f.kind FROM trades t JOIN trade_fills f USING (trade_id) ORDER BY t.shard, t.seq`,
    ).toEqual([
      { status: 'CONFIRMED', kind: 'mint' },
      { status: 'CONFIRMED', kind: 'transfer' },
      { status: 'CONFIRMED', kind: 'merge' },
      { status: 'CONFIRMED', kind: 'mint' },
    ]);
    expect(committed.filter((c) => !c.replay).map((c) => [c.shard, c.toSeq])).toEqual(
      expect.arrayContaining(scenario.map((j) => [j.shard, j.toSeq])),
    );
  });

  it('leaves every balance equal to the risk book fed the same events, and the ledger sound', async () => {
    const rows = await sql<
      { address: string; asset: string; amount: string }[]
    >`SELECT address, asset, amount::text FROM balances`;
    for (const row of rows) {
      const book = row.address === 'erin' || row.address === 'frank' ? shards[1]! : shards[0]!;
      expect(Number(row.amount), `${row.address} ${row.asset}`).toBe(book.risk.balance(row.address, row.asset).total);
    }
    expect(await sql`SELECT condition_id, locked::text FROM market_collateral ORDER BY condition_id`).toEqual(
      [
        { condition_id: A.conditionId, locked: String(shards[0]!.risk.lockedCollateral(A.conditionId)) },
        { condition_id: B.conditionId, locked: String(shards[1]!.risk.lockedCollateral(B.conditionId)) },
      ].sort((x, y) => (x.condition_id < y.condition_id ? -1 : 1)),
    );
    expect(await checkLedger(sql)).toEqual([]);
  });

  it('treats a batch delivered twice as a no-op', async () => {
    const before =
      await sql`SELECT (SELECT count(*) FROM ledger_entries) e, (SELECT sum(amount)::text FROM balances) b, (SELECT count(*) FROM trades) t`;
    const replays = committed.filter((c) => c.replay).length;
    await enqueue(scenario[0]!);
    await enqueue(scenario[2]!);
    await eventually(() => committed.filter((c) => c.replay).length === replays + 2, 10_000, 'replays consumed');
    expect(
      await sql`SELECT (SELECT count(*) FROM ledger_entries) e, (SELECT sum(amount)::text FROM balances) b, (SELECT count(*) FROM trades) t`,
    ).toEqual(before);
  });

  it('fails a batch that arrives before its predecessor, loudly, and applies it once the predecessor comes', async () => {
    const first = batch(1, 2_000, (ops) =>
      ops.place({ id: 'erin-bid', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 400, size: 1 * TOKEN }),
    );
    const second = batch(1, 3_000, (ops) =>
      ops.place({ id: 'frank-ask', owner: 'frank', market: B, token: 0, side: Side.SELL, price: 600, size: 1 * TOKEN }),
    );
    const third = batch(1, 4_000, (ops) =>
      ops.place({ id: 'erin-bid-2', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 450, size: 1 * TOKEN }),
    );
    const at = await offset(1);
    await enqueue(second);
    await eventually(async () => (await queues[1]!.getFailedCount()) === 1, 10_000, 'the early batch to fail');
    expect(await offset(1)).toBe(at);
    expect(
      logs.some(
        (l) => l.includes(`batch ${second.fromSeq}..${second.toSeq} FAILED`) && l.includes('are not in the queue'),
      ),
    ).toBe(true);
    // A later batch behind the same gap fails too, and is not logged again (one line per batch
    // flooded the log for as long as a gap lasted).
    await enqueue(third);
    await eventually(async () => (await queues[1]!.getFailedCount()) === 2, 10_000, 'the later batch to fail');
    expect(logs.filter((l) => l.includes('are not in the queue'))).toHaveLength(1);
    await enqueue(first);
    await eventually(
      async () => (await offset(1)) === third.toSeq && (await queues[1]!.getFailedCount()) === 0,
      10_000,
      'the gap to heal',
    );
    expect(
      await sql`SELECT order_id FROM orders WHERE order_id IN ('erin-bid', 'frank-ask', 'erin-bid-2') ORDER BY accepted_seq`,
    ).toHaveLength(3);
  });

  it('puts batches that arrive out of order back in sequence, grouped into one transaction', async () => {
    const first = batch(1, 4_500, (ops) =>
      ops.place({ id: 'erin-bid-a', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 200, size: 1 * TOKEN }),
    );
    const second = batch(1, 4_600, (ops) =>
      ops.place({ id: 'erin-bid-b', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 210, size: 1 * TOKEN }),
    );
    const failedLogs = logs.filter((l) => l.includes('FAILED')).length;
    await queues[1]!.addBulk(
      [second, first].map((data) => ({
        name: SHARD_JOB_NAME,
        data,
        opts: { removeOnComplete: true, removeOnFail: false },
      })),
    );
    await eventually(async () => (await offset(1)) === second.toSeq, 10_000, 'both batches');
    expect(logs.filter((l) => l.includes('FAILED')).length).toBe(failedLogs);
    expect(await queues[1]!.getFailedCount()).toBe(0);
  });

  it('resumes from the queue after a restart, history included', async () => {
    await ingest.close();
    const later = batch(0, 241_000, (ops) =>
      ops.place({
        id: 'dave-buy-yes',
        owner: 'dave',
        market: A,
        token: 0,
        side: Side.BUY,
        price: 80,
        size: 10 * TOKEN,
      }),
    ); // takes carol's ask
    await enqueue(later);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await offset(0)).toBe(scenario[5]!.toSeq);
    ingest = await start();
    await eventually(async () => (await offset(0)) === later.toSeq, 10_000, 'the backlog after restart');
    expect(await sql`SELECT status FROM orders WHERE order_id = 'carol-ask'`).toEqual([{ status: 'matched' }]);
    expect(await checkLedger(sql)).toEqual([]);
  });

  it('applies a batch still held by a crashed consumer rather than skipping it', async () => {
    await ingest.close();
    const connection = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
    // A consumer that takes the batch and dies holding it: the job stays active under its lock.
    const crashed = new Worker<ShardJob>(shardQueueName(1), () => new Promise<void>(() => undefined), {
      connection,
      prefix: bullPrefix,
      lockDuration: 60_000,
    });
    const held = batch(1, 5_000, (ops) =>
      ops.place({ id: 'erin-bid-3', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 300, size: 1 * TOKEN }),
    );
    const next = batch(1, 6_000, (ops) =>
      ops.place({ id: 'erin-bid-4', owner: 'erin', market: B, token: 0, side: Side.BUY, price: 310, size: 1 * TOKEN }),
    );
    await enqueue(held);
    await eventually(async () => (await queues[1]!.getActiveCount()) === 1, 10_000, 'the batch to be taken');
    await crashed.close(true);
    connection.disconnect();
    await enqueue(next);
    const failedLogs = logs.length;
    ingest = await start();
    await eventually(async () => (await offset(1)) === next.toSeq, 10_000, 'both batches applied');
    expect(logs.slice(failedLogs).filter((l) => l.includes('FAILED'))).toEqual([]);
    expect(await checkLedger(sql)).toEqual([]);
  });
});

describe('history in ClickHouse', () => {
  it('has every committed trade, newest first, for GET /trades', async () => {
    await ingest.history!.catchUp();
    const trades = await recentTrades(ch, { market: A.conditionId });
    const ledger = await sql<
      { trade_id: string }[]
    >`SELECT trade_id FROM trades WHERE market = ${A.conditionId} ORDER BY match_time DESC`;
    expect(trades.map((t) => t.id)).toEqual(ledger.map((t) => t.trade_id));
    expect(trades[0]).toEqual({
      id: ledger[0]!.trade_id,
      taker_order_id: 'dave-buy-yes',
      market: A.conditionId,
      asset_id: A.tokens[0],
      side: 'BUY',
      size: '10',
      fee_rate_bps: '0',
      price: '0.8',
      status: 'CONFIRMED',
      match_time: new Date(T0 + 241_000).toISOString(),
      outcome: 'Yes',
      transaction_hash: transactionHash(ledger[0]!.trade_id),
      bucket_index: 0,
    });
    expect((await listTrades(sql, { address: 'carol' })).data.map((t) => t.id)).toEqual(
      (
        await sql<
          { trade_id: string }[]
        >`SELECT DISTINCT t.trade_id, t.match_time FROM trades t JOIN trade_fills f USING (trade_id) WHERE f.maker_address = 'carol' ORDER BY t.match_time DESC`
      ).map((r) => r.trade_id),
    );
  });

  it('has candles from the fills and the midpoint history of both tokens', async () => {
    const start = T0 / 1000;
    expect(await candles(ch, { assetId: A.tokens[0], interval: '1m', startTs: start, endTs: start + 300 })).toEqual([
      { t: start, open: 0.4, high: 0.4, low: 0.4, close: 0.4, volume: 50, trades: 1 }, // the mint, YES at the maker's 0.40
      { t: start + 60, open: 0.45, high: 0.45, low: 0.45, close: 0.45, volume: 30, trades: 1 },
      { t: start + 120, open: 0.7, high: 0.7, low: 0.7, close: 0.7, volume: 20, trades: 1 },
      { t: start + 240, open: 0.8, high: 0.8, low: 0.8, close: 0.8, volume: 10, trades: 1 },
    ]);
    // YES book after each batch: 40 / none; 40 / 80 (mid 0.60); 40 / 80; cancel → none / 80; GTD NO bid 0.30 adds a YES ask at 0.70 …
    const yes = await priceHistory(ch, A.tokens[0], { startTs: start, endTs: start + 180, fidelity: 1 });
    expect(yes).toEqual([
      { t: start + 60, p: 0.6 },
      { t: start + 120, p: 0.6 },
      { t: start + 180, p: 0.6 },
    ]);
    const no = await priceHistory(ch, A.tokens[1], { startTs: start, endTs: start + 180 });
    expect(no.map((point) => point.p)).toEqual([0.4, 0.4, 0.4]);
  });
});

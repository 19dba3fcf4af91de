// Shards as threads with real Redis: markets spread over shards by hash, each market always on
// the same shard, and every batch's events in that shard's BullMQ queue, in order, before the ack.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, Side } from '@pmx/matching';
import { cleanupRedisPrefix, testkitConfig, testRedisPrefix } from '@pmx/testkit';
import { shardQueueName, type ShardEvent, type ShardJob, type ShardReply } from '@pmx/events';
import { ShardSet, shardOf } from './shard-set.ts';

const TOKEN = 1_000_000;
const prefix = testRedisPrefix();
const bullPrefix = prefix.slice(0, -1);
const redis = new Redis(testkitConfig.redisUrl);
const replies: [number, ShardReply][] = [];
let shards: ShardSet;

/** Two market keys that hash to different shards of two. */
function marketsOnTwoShards(): [string, string] {
  const keys = Array.from({ length: 20 }, (_, i) => `0xmarket${i}`);
  const first = keys.find((k) => shardOf(k, 2) === 0)!;
  const second = keys.find((k) => shardOf(k, 2) === 1)!;
  return [first, second];
}

beforeAll(() => {
  shards = new ShardSet({
    shards: 2,
    redisUrl: testkitConfig.redisUrl,
    redisPrefix: bullPrefix,
    onReply: (s, r) => replies.push([s, r]),
  });
});

afterAll(async () => {
  await shards.close();
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
});

describe('ShardSet', () => {
  it('maps a market to the same shard every time', () => {
    for (const key of ['0xabc', '0xdef', 'x'])
      expect(new Set(Array.from({ length: 5 }, () => shardOf(key, 4))).size).toBe(1);
  });

  it('matches two markets on two shards independently and queues each shard its own events in order', async () => {
    const [a, b] = marketsOnTwoShards();
    const add = (key: string) =>
      shards.submit(shards.shardOf(key), {
        type: 'market',
        market: { key, tokens: [`${key}-yes`, `${key}-no`], tickSize: '0.01', minSize: 0 },
      });
    await Promise.all([add(a), add(b)]);
    const orders = [];
    for (const key of [a, b]) {
      const shard = shards.shardOf(key);
      for (let i = 0; i < 5; i++) {
        orders.push(
          shards.submit(shard, {
            type: 'place',
            orderId: `${key}-s${i}`,
            owner: 'maker',
            ownerKey: 'k',
            builder: '0x0',
            signedAt: 0,
            market: key,
            token: 0,
            side: Side.SELL,
            orderType: OrderType.GTC,
            price: 50 + i,
            size: 10 * TOKEN,
            postOnly: false,
            expiresAt: 0,
          }),
        );
      }
      orders.push(
        shards.submit(shard, {
          type: 'place',
          orderId: `${key}-buy`,
          owner: 'taker',
          ownerKey: 'k',
          builder: '0x0',
          signedAt: 0,
          market: key,
          token: 0,
          side: Side.BUY,
          orderType: OrderType.FAK,
          price: 52,
          size: 25 * TOKEN,
          postOnly: false,
          expiresAt: 0,
        }),
      );
    }
    const results = await Promise.all(orders);
    expect(
      results.filter((r) => r.type === 'place' && r.ok && r.status === 'matched' && r.filled === 25 * TOKEN),
    ).toHaveLength(2);

    for (const key of [a, b]) {
      const shard = shards.shardOf(key);
      const queue = new Queue<ShardJob>(shardQueueName(shard), { connection: redis, prefix: bullPrefix });
      const jobs = (await queue.getJobs(['waiting'])).sort((x, y) => x.data.fromSeq - y.data.fromSeq);
      const events: ShardEvent[] = jobs.flatMap((job) => job.data.events);
      expect(jobs.every((job) => job.data.shard === shard)).toBe(true);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.every((e) => e.market === key)).toBe(true); // never split: all of a market's events on its shard
      expect(events.filter((e) => e.type === 'trade')).toHaveLength(1);
      await queue.close();
    }
    const replyShards = new Set(replies.map(([s]) => s));
    expect(replyShards).toEqual(new Set([0, 1]));
  });

  it('appends batches sent turn after turn as jobs of consecutive sequence ranges, whatever goes together', async () => {
    const c = '0xburst';
    const shard = shards.shardOf(c);
    await shards.submit(shard, {
      type: 'market',
      market: { key: c, tokens: [`${c}-yes`, `${c}-no`], tickSize: '0.01', minSize: 0 },
    });
    const queue = new Queue<ShardJob>(shardQueueName(shard), { connection: redis, prefix: bullPrefix });
    const before = (await queue.getJobs(['waiting'])).length;
    const placed = [];
    for (let i = 0; i < 40; i++) {
      placed.push(
        shards.submit(shard, {
          type: 'place',
          orderId: `${c}-t${i}`,
          owner: 'maker',
          ownerKey: 'k',
          builder: '0x0',
          signedAt: 0,
          market: c,
          token: 0,
          side: Side.SELL,
          orderType: OrderType.GTC,
          price: 60 + (i % 5),
          size: 10 * TOKEN,
          postOnly: false,
          expiresAt: 0,
        }),
      );
      await new Promise((resolve) => setImmediate(resolve)); // a batch per turn, while earlier appends are out
    }
    expect((await Promise.all(placed)).every((r) => r.type === 'place' && r.ok)).toBe(true);
    const jobs = (await queue.getJobs(['waiting'])).map((job) => job.data).sort((x, y) => x.fromSeq - y.fromSeq);
    const mine = jobs.filter((job) => job.events.some((e) => e.market === c));
    expect(mine.flatMap((job) => job.events).filter((e) => e.type === 'accepted')).toHaveLength(40);
    expect(jobs.length - before).toBeLessThanOrEqual(40);
    for (const [i, job] of jobs.entries()) {
      expect(job.events.map((e) => e.seq)).toEqual(job.events.map((_, k) => job.fromSeq + k));
      expect(job.toSeq).toBe(job.events[job.events.length - 1]!.seq);
      if (i > 0) expect(job.fromSeq).toBe(jobs[i - 1]!.toSeq + 1);
    }
    await queue.close();
  });

  it('hands a shard the commands of one turn in one batch', async () => {
    const from = replies.length;
    await Promise.all([0, 1, 2].map(() => shards.submit(0, { type: 'status' })));
    const mine = replies.slice(from).filter(([shard]) => shard === 0);
    expect(mine.map(([, reply]) => reply.results.length)).toEqual([3]);
  });

  it('sends what queued behind a full pipeline as one batch once a reply frees it', async () => {
    const ownPrefix = testRedisPrefix();
    const sizes: number[] = [];
    const own = new ShardSet({
      shards: 1,
      redisUrl: testkitConfig.redisUrl,
      redisPrefix: ownPrefix.slice(0, -1),
      pipelineDepth: 1,
      onReply: (_, reply) => sizes.push(reply.results.length),
    });
    try {
      const first = own.submit(0, { type: 'status' });
      const later: Promise<unknown>[] = [];
      for (let turn = 0; turn < 3; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
        later.push(own.submit(0, { type: 'status' }));
      }
      await Promise.all([first, ...later]);
      // The first batch is out until its thread answers (it starts the thread): the rest wait for it.
      expect(sizes).toEqual([1, 3]);
    } finally {
      await own.close();
      await cleanupRedisPrefix(redis, ownPrefix);
    }
  });

  it('on close, finishes the batches out and queued (their events stored), then refuses commands with 503', async () => {
    const ownPrefix = testRedisPrefix();
    const own = new ShardSet({
      shards: 1,
      redisUrl: testkitConfig.redisUrl,
      redisPrefix: ownPrefix.slice(0, -1),
      onReply: () => {},
    });
    const key = '0xclosing';
    const place = (i: number) =>
      own.submit(0, {
        type: 'place',
        orderId: `${key}-${i}`,
        owner: 'maker',
        ownerKey: 'k',
        builder: '0x0',
        signedAt: 0,
        market: key,
        token: 0,
        side: Side.SELL,
        orderType: OrderType.GTC,
        price: 60,
        size: 10 * TOKEN,
        postOnly: false,
        expiresAt: 0,
      });
    try {
      await own.submit(0, {
        type: 'market',
        market: { key, tokens: [`${key}-yes`, `${key}-no`], tickSize: '0.01', minSize: 0 },
      });
      const placed = Array.from({ length: 3000 }, (_, i) => place(i));
      const closed = own.close();
      // The thread does not stop at once: batches out are stored, queued ones settle.
      expect((await Promise.all(placed)).every((r) => r.type === 'place' && r.ok)).toBe(true);
      await closed;
      await expect(place(-1)).rejects.toMatchObject({ status: 503 });
      const queue = new Queue<ShardJob>(shardQueueName(0), { connection: redis, prefix: ownPrefix.slice(0, -1) });
      const events = (await queue.getJobs(['waiting'])).flatMap((job) => job.data.events);
      expect(events.filter((e) => e.type === 'accepted')).toHaveLength(3000);
      await queue.close();
    } finally {
      await own.close();
      await cleanupRedisPrefix(redis, ownPrefix);
    }
  });

  it('still reports a real fault of a batch that finishes during the close', async () => {
    const ownPrefix = testRedisPrefix();
    const faults: string[] = [];
    const own = new ShardSet({
      shards: 1,
      redisUrl: testkitConfig.redisUrl,
      redisPrefix: ownPrefix.slice(0, -1),
      onReply: (_, reply) => {
        if (reply.results.some((r) => r.type === 'market')) throw new Error('the book cache could not follow');
      },
      onFault: (_, error) => faults.push(error.message),
    });
    try {
      const added = own.submit(0, {
        type: 'market',
        market: { key: '0xfault', tokens: ['0xfault-yes', '0xfault-no'], tickSize: '0.01', minSize: 0 },
      });
      const closed = own.close();
      await added;
      await closed;
      // A fault during the stop is not taken for the stop's own: it is logged.
      expect(faults).toEqual(['the book cache could not follow']);
    } finally {
      await cleanupRedisPrefix(redis, ownPrefix);
    }
  });
});

// A shard's thread (one Piscina pool with one thread): runs each batch on its ShardHost, then
// appends the batch's events to the shard's BullMQ queue before replying, so the front end can
// acknowledge an order only once its events are durable in Redis. While Redis is away the
// append (and so the shard) waits rather than answer for events that were not stored.

import { workerData } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SHARD_JOB_NAME, shardQueueName, type ShardBatch, type ShardJob, type ShardReply } from '@pmx/events';
import { ShardHost } from './shard-host.ts';

export interface ShardWorkerData {
  shard: number;
  redisUrl: string;
  redisPrefix: string;
}

const data = workerData as ShardWorkerData;
const host = new ShardHost(data.shard);
const connection = new Redis(data.redisUrl, { maxRetriesPerRequest: null });
const queue = new Queue<ShardJob>(shardQueueName(data.shard), { connection, prefix: data.redisPrefix });

export default async function runBatch(batch: ShardBatch): Promise<ShardReply> {
  const reply = host.handle(batch);
  if (reply.events.length > 0) {
    const job: ShardJob = { shard: data.shard, fromSeq: reply.events[0]!.seq, toSeq: reply.seq, events: reply.events };
    await queue.add(SHARD_JOB_NAME, job, { removeOnComplete: true, removeOnFail: false });
  }
  return reply;
}

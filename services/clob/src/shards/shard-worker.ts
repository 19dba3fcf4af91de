// A shard's thread (one Piscina pool with one thread): runs each batch on its ShardHost, then
// appends the batch's events to the shard's BullMQ queue before replying, so the front end can
// acknowledge an order only once its events are durable in Redis. While Redis is away the
// append (and so the shard) waits rather than answer for events that were not stored.
//
// Appends are group-committed: while one job is on its way to Redis, the batches matched
// meanwhile wait and then go together as one job (their sequence numbers are consecutive), so a
// busy shard makes fewer, larger appends and an idle one appends at once.

import { workerData } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SHARD_JOB_NAME, shardQueueName, type ShardBatch, type ShardEvent, type ShardJob, type ShardReply } from '@pmx/events';
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

let waitingEvents: ShardEvent[] = [];
let waitingToSeq = 0;
let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
let appending = false;

async function appendWaiting(): Promise<void> {
  appending = true;
  while (waitingEvents.length > 0) {
    const events = waitingEvents;
    const answered = waiters;
    waitingEvents = [];
    waiters = [];
    const job: ShardJob = { shard: data.shard, fromSeq: events[0]!.seq, toSeq: waitingToSeq, events };
    try {
      await queue.add(SHARD_JOB_NAME, job, { removeOnComplete: true, removeOnFail: false });
      for (const w of answered) w.resolve();
    } catch (error) {
      for (const w of answered) w.reject(error);
    }
  }
  appending = false;
}

function append(events: ShardEvent[], toSeq: number): Promise<void> {
  return new Promise((resolve, reject) => {
    for (const event of events) waitingEvents.push(event);
    waitingToSeq = toSeq;
    waiters.push({ resolve, reject });
    if (!appending) void appendWaiting();
  });
}

export default async function runBatch(batch: ShardBatch): Promise<ShardReply> {
  const reply = host.handle(batch);
  if (reply.events.length > 0) await append(reply.events, reply.seq);
  return reply;
}

// A shard's thread (one Piscina pool with one thread): runs each batch on its ShardHost, then
// appends the batch's events to the shard's BullMQ queue before replying, so the front end can
// acknowledge an order only once its events are durable in Redis. While Redis is away or refuses
// the append, the append (and so the shard) waits and retries rather than answer for events that
// were not stored (event-appender.ts, which also group-commits the appends).

import { workerData } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SHARD_JOB_NAME, shardQueueName, type ShardBatch, type ShardJob, type ShardReply } from '@pmx/events';
import { setLogLevel, type LogLevel } from '@pmx/config';
import { EventAppender } from './event-appender.ts';
import { ShardHost } from './shard-host.ts';
import { StoredEventsWatch } from './stored-events-watch.ts';

export interface ShardWorkerData {
  shard: number;
  redisUrl: string;
  redisPrefix: string;
  /** How long an append may go unanswered before it is tried again (ShardSetOptions.stallMs). */
  stallMs: number;
  /** The front end's log level, which this thread's log follows. */
  logLevel: LogLevel;
}

const data = workerData as ShardWorkerData;
setLogLevel(data.logLevel);
const host = new ShardHost(data.shard);
// An append Redis has not answered within the stall time fails and is tried again
// (event-appender.ts), which logs it: without a timeout a hung Redis would hold the shard silently
// for as long as it hangs. (A timed-out append that did land is stored twice; ingest skips the copy.)
const connection = new Redis(data.redisUrl, { maxRetriesPerRequest: null, commandTimeout: data.stallMs });
// No version check: it is the one command of BullMQ's start-up (INFO), and a timeout of it would
// leave the queue failing every add for good (BullMQ keeps its first start-up's outcome).
const queue = new Queue<ShardJob>(shardQueueName(data.shard), {
  connection,
  prefix: data.redisPrefix,
  skipVersionCheck: true,
});
// A loss of what Redis had stored (stored-events-watch.ts) halts trading: every reply from then
// on carries it, and its commands are answered 503 (outcome unknown: ingest stops at the gap, so
// they may never reach the ledger).
const watch = new StoredEventsWatch(data.shard, connection, `${data.redisPrefix}:${shardQueueName(data.shard)}-mark`);
const appender = new EventAppender(
  data.shard,
  async (job) => {
    await watch.beforeAppend();
    let added;
    try {
      added = await queue.add(SHARD_JOB_NAME, job, { removeOnComplete: true, removeOnFail: false });
    } catch (error) {
      watch.appendFailed();
      throw error;
    }
    await watch.appended(added.id, job.fromSeq, job.toSeq);
    return added;
  },
  {
    // A timed-out append has already waited stallMs: at most 1 s more, so orders flow again soon
    // after Redis does.
    retryDelayMs: (attempt) => Math.min(1_000, 100 * 2 ** (attempt - 1)),
  },
);

export default async function runBatch(batch: ShardBatch): Promise<ShardReply> {
  const reply = host.handle(batch);
  if (reply.events.length > 0) await appender.append(reply.events, reply.seq);
  return watch.lost === undefined ? reply : { ...reply, fault: watch.lost };
}

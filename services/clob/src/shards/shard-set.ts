// The front end's view of its shards: a market maps to one shard by a stable hash; commands
// for a shard are batched per event-loop turn. A few batches may be in flight per shard: the
// shard matches them in arrival order and appends their events to its queue in that order while
// the previous append is still on the wire; replies are applied strictly in batch order.
// Each reply is handed to `onReply` (risk settlement, book cache) before callers are answered.

import { Piscina } from 'piscina';
import { workerExecArgv, logger, type LogLevel } from '@pmx/config';
import type { ShardBatch, ShardCommand, ShardReply, ShardResult } from '@pmx/events';
import { HttpError } from '@pmx/http';
import type { ShardWorkerData } from './shard-worker.ts';

export interface ShardSetOptions {
  shards: number;
  redisUrl: string;
  redisPrefix: string;
  /** Largest batch sent to a shard at once. */
  maxBatch?: number;
  /** Batches in flight per shard (matched, their queue appends pipelined). */
  pipelineDepth?: number;
  onReply: (shard: number, reply: ShardReply) => void;
  /**
   * The front end's state can no longer follow the shard: `onReply` threw part-way through a
   * reply, or a batch failed in the shard (its engine may have acted on commands whose events
   * were never stored). Called once per fault; the batches behind it are still applied and
   * answered. The caller should stop trading and recover from the ledger.
   */
  onFault?: (shard: number, error: Error) => void;
  now?: () => number;
  /**
   * A shard whose oldest batch out has waited this long (its events not yet stored: Redis hung or
   * away) takes no new orders: they are refused at once (ShardStalled, 503), before the engine sees
   * them, rather than pile up unanswered. Cancels and the rest still queue. An append unanswered
   * this long is also tried again, and logged (shard-worker.ts). Default 5 s.
   */
  stallMs?: number;
}

/** An order refused because its shard's events have not been stored for a while: it was not placed. */
export class ShardStalled extends HttpError {
  constructor(shard: number, seconds: number) {
    super(
      503,
      `shard ${shard} has not been able to store its events for ${seconds} s (its Redis queue does not answer); the order was not placed: retry later`,
    );
  }
}

interface Pending {
  command: ShardCommand;
  resolve: (result: ShardResult) => void;
  reject: (error: Error) => void;
}

/** FNV-1a 32 of the market key: stable across processes and restarts. */
export function shardOf(marketKey: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < marketKey.length; i++) {
    hash ^= marketKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

export class ShardSet {
  private readonly pools: Piscina[];
  private readonly queued: Pending[][];
  private readonly scheduled: boolean[];
  /** Replies that arrived before an earlier batch's, by batch number, per shard. */
  private readonly early: Map<number, { pending: Pending[]; outcome: ShardReply | Error }>[];
  private readonly sent: number[];
  private readonly applied: number[];
  private readonly maxBatch: number;
  private readonly depth: number;
  private readonly now: () => number;
  /** Per shard, when each batch out was sent (performance.now()), oldest first: its length is how many are out. */
  private readonly sentAt: number[][];
  private readonly stallMs: number;
  private closing = false;
  /** The threads are being stopped: batches still out fail because of it, not of a fault. */
  private terminating = false;

  constructor(private readonly options: ShardSetOptions) {
    this.maxBatch = options.maxBatch ?? 512;
    this.depth = options.pipelineDepth ?? 4;
    this.now = options.now ?? Date.now;
    this.stallMs = options.stallMs ?? 5_000;
    this.pools = Array.from({ length: options.shards }, (_, shard) => {
      const data: ShardWorkerData = {
        shard,
        redisUrl: options.redisUrl,
        redisPrefix: options.redisPrefix,
        stallMs: this.stallMs,
        logLevel: logger('clob.shards').level as LogLevel,
      };
      return new Piscina({
        filename: new URL('./shard-worker.ts', import.meta.url).href,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: Infinity,
        recordTiming: false, // nothing reads Piscina's run and wait histograms
        concurrentTasksPerWorker: this.depth,
        workerData: data,
        execArgv: workerExecArgv(),
      });
    });
    this.queued = this.pools.map(() => []);
    this.scheduled = this.pools.map(() => false);
    this.early = this.pools.map(() => new Map());
    this.sent = this.pools.map(() => 0);
    this.applied = this.pools.map(() => 0);
    this.sentAt = this.pools.map(() => []);
  }

  get count(): number {
    return this.pools.length;
  }

  shardOf(marketKey: string): number {
    return shardOf(marketKey, this.pools.length);
  }

  submit(shard: number, command: ShardCommand): Promise<ShardResult> {
    return new Promise((resolve, reject) => {
      if (this.closing) return reject(stopping());
      const oldest = this.sentAt[shard]![0];
      if (command.type === 'place' && oldest !== undefined && performance.now() - oldest >= this.stallMs) {
        return reject(new ShardStalled(shard, Math.floor((performance.now() - oldest) / 1000)));
      }
      this.queued[shard]!.push({ command, resolve, reject });
      this.schedule(shard);
    });
  }

  /** One hand-off per shard per turn: the flush runs after every command of this turn has queued. */
  private schedule(shard: number): void {
    if (this.scheduled[shard] || this.sentAt[shard]!.length >= this.depth) return;
    this.scheduled[shard] = true;
    setImmediate(() => this.flush(shard));
  }

  /** Sends a command to every shard (e.g. the expiry timer). */
  broadcast(command: ShardCommand): Promise<ShardResult[]> {
    return Promise.all(this.pools.map((_, shard) => this.submit(shard, command)));
  }

  private flush(shard: number): void {
    this.scheduled[shard] = false;
    const queue = this.queued[shard]!;
    while (queue.length > 0 && this.sentAt[shard]!.length < this.depth) {
      const pending = queue.splice(0, this.maxBatch);
      const number = this.sent[shard]!++;
      this.sentAt[shard]!.push(performance.now());
      const batch: ShardBatch = { now: this.now(), commands: pending.map((p) => p.command) };
      this.pools[shard]!.run(batch).then(
        (reply: ShardReply) => this.settle(shard, number, pending, reply),
        // Judged when it fails: a batch applied later, behind a slower one, keeps what it was.
        (error: unknown) =>
          this.settle(
            shard,
            number,
            pending,
            this.terminating ? CUT_OFF : error instanceof Error ? error : new Error(String(error)),
          ),
      );
    }
  }

  /** Applies replies in the order their batches were sent, then sends what queued meanwhile. */
  private settle(shard: number, number: number, pending: Pending[], outcome: ShardReply | Error): void {
    const early = this.early[shard]!;
    early.set(number, { pending, outcome });
    for (let next = early.get(this.applied[shard]!); next !== undefined; next = early.get(this.applied[shard]!)) {
      early.delete(this.applied[shard]!++);
      this.sentAt[shard]!.shift();
      if (next.outcome instanceof Error) {
        // A batch the threads' stop cut off is no fault: a 503. (A reply that does arrive is
        // judged as any other, its faults reported.)
        if (next.outcome !== CUT_OFF) this.fault(shard, next.outcome);
        const error = next.outcome === CUT_OFF ? stopping() : next.outcome;
        for (const p of next.pending) p.reject(error);
        continue;
      }
      const reply = next.outcome;
      try {
        this.options.onReply(shard, reply);
      } catch (error) {
        this.fault(shard, error instanceof Error ? error : new Error(String(error)));
      }
      if (reply.fault !== undefined) {
        // Its events are in a queue that lost what came before them: not known to be recorded.
        this.fault(shard, new Error(reply.fault));
        const unknown = new HttpError(503, `trading halted: ${reply.fault}; the outcome of this command is unknown`);
        for (const p of next.pending) p.reject(unknown);
        continue;
      }
      const partial = reply.results.find((r) => r.type === 'error' && r.partial === true);
      if (partial !== undefined && partial.type === 'error')
        this.fault(shard, new Error(`a command failed part-way in the shard: ${partial.message}`));
      // The reply's events are in the shard's queue (appended before the reply), so what it says
      // happened did happen, whatever became of applying it here.
      next.pending.forEach((p, i) => p.resolve(reply.results[i]!));
    }
    if (this.queued[shard]!.length > 0) this.schedule(shard);
  }

  private fault(shard: number, error: Error): void {
    if (this.options.onFault === undefined) {
      logger('clob.shards').error({ err: error }, `shard ${shard} fault`);
      return;
    }
    try {
      this.options.onFault(shard, error);
    } catch (thrown) {
      logger('clob.shards').error({ err: thrown }, `shard ${shard} fault handler threw`);
    }
  }

  /**
   * Takes no more commands, lets the batches out and queued finish (their events reach the
   * queues) for up to `graceMs`, then stops the threads; a command left then is refused with 503,
   * not logged as a fault.
   */
  async close({ graceMs = 2_000 } = {}): Promise<void> {
    this.closing = true;
    const until = performance.now() + graceMs;
    const busy = () => this.sentAt.some((out) => out.length > 0) || this.queued.some((queue) => queue.length > 0);
    while (busy() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const queue of this.queued) for (const p of queue.splice(0)) p.reject(stopping());
    this.terminating = true;
    await Promise.all(this.pools.map((pool) => pool.destroy()));
  }
}

/** The outcome of a batch that failed because the threads were being stopped. */
const CUT_OFF = new Error('cut off by the stop');

/** What a command gets once the shards stop: not placed, or not known to have been (503). */
function stopping(): HttpError {
  return new HttpError(
    503,
    'the exchange is stopping; retry once it is back (an order in flight shows in GET /data/order/{id} if it was placed)',
  );
}

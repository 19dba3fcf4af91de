// One BullMQ Worker per shard queue: its jobs (shard batches) go to the shard's ledger strictly in
// sequence order, the batches in hand grouped into one transaction (group-commit.ts). Database
// outages are waited out inside the job (the order of batches must not change); a batch that
// arrives before its predecessor — the predecessor still held by a crashed worker, or sitting in
// the failed set — first pulls the missing batches from the queue's other states ("heal"), and
// fails loudly if they cannot be found. Failed batches are healed again on a timer.

import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApplyOutcome, ShardLedger } from '../ledger/shard-ledger.ts';
import { throttledLog } from '@pmx/config';
import { shardQueueName, type ShardJob } from '@pmx/events';
import { GroupCommitter, type JobOutcome } from './group-commit.ts';
import { isTransient } from './transient-errors.ts';
import { logger } from '@pmx/config';

export interface CommittedBatch {
  shard: number;
  fromSeq: number;
  toSeq: number;
  /** Events newly applied (0 for a replay). */
  events: number;
  trades: number;
  replay: boolean;
  /** When the shard enqueued the batch (the BullMQ job's timestamp), ms. */
  enqueuedAt: number;
  committedAt: number;
}

export interface ShardConsumerOptions {
  ledger: ShardLedger;
  /** ioredis connection with maxRetriesPerRequest: null (BullMQ duplicates it for blocking reads). */
  connection: Redis;
  /** BullMQ prefix: PMX_REDIS_PREFIX, as the front end's shard threads use it. */
  prefix: string;
  /** How often the failed set is checked for batches that can now be applied. Default 5 s. */
  healIntervalMs?: number;
  /**
   * Most batches committed in one transaction (the worker's BullMQ concurrency: it holds this
   * many jobs at once, and they are applied in sequence order). Default 64.
   */
  maxBatchesPerTransaction?: number;
  /** How long a batch ahead of a gap waits for its predecessor before a heal. Default 250 ms. */
  gapWaitMs?: number;
  /** Backoff while Postgres is unreachable: first and longest wait. Default 50 ms … 5 s. */
  retryInitialMs?: number;
  retryMaxMs?: number;
  onCommitted?: (batch: CommittedBatch) => void;
  log?: (message: string) => void;
}

/** The batch's predecessor is in neither Postgres nor the queue: ingest stops here rather than skip. */
export class SequenceGapError extends Error {
  override readonly name = 'SequenceGapError';
  constructor(
    message: string,
    /** Where the ledger stands: the batches from lastSeq + 1 are missing. */
    readonly lastSeq: number,
  ) {
    super(message);
  }
}

class ShutdownError extends Error {
  override readonly name = 'ShutdownError';
}

/** How many jobs per state a heal looks at. */
const HEAL_SCAN = 1000;
type HealState = 'failed' | 'active' | 'delayed' | 'wait';
/** Where a missing batch can be: failed, held by a consumer that died, retrying, or queued out of order. */
const GAP_STATES: HealState[] = ['failed', 'active', 'delayed', 'wait'];
/** At start the waiting backlog is the worker's job; only what a crash or a failure left behind is healed. */
const RESTART_STATES: HealState[] = ['failed', 'active', 'delayed'];

export class ShardConsumer {
  readonly shard: number;
  readonly queue: Queue<ShardJob>;
  private worker: Worker<ShardJob> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private healing: Promise<void> | null = null;
  private readonly log: (message: string) => void;
  private readonly committer: GroupCommitter;

  constructor(private readonly options: ShardConsumerOptions) {
    this.shard = options.ledger.shard;
    this.queue = new Queue<ShardJob>(shardQueueName(this.shard), {
      connection: options.connection,
      prefix: options.prefix,
    });
    this.log = options.log ?? ((message) => logger('ingest').warn(message));
    this.committer = new GroupCommitter({
      ledger: options.ledger,
      apply: (job) => this.applyPatiently(job),
      heal: (skip) => this.heal(skip),
      gapWaitMs: options.gapWaitMs ?? 250,
      gapError: (job, lastSeq) =>
        new SequenceGapError(
          `shard ${this.shard}: batch ${job.fromSeq}..${job.toSeq} arrived but the ledger is at ${lastSeq} ` +
            `and batches from ${lastSeq + 1} are not in the queue; it will be retried when they appear`,
          lastSeq,
        ),
    });
  }

  /** Applies what a previous run left failed or held by a crashed consumer, then starts consuming. */
  async start(): Promise<void> {
    await this.heal(new Set(), RESTART_STATES);
    this.worker = new Worker<ShardJob>(shardQueueName(this.shard), (job) => this.process(job), {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: this.options.maxBatchesPerTransaction ?? 64,
      // A batch a killed consumer held goes back to the queue within seconds, not BullMQ's 30 s.
      lockDuration: 10_000,
      stalledInterval: 5_000,
    });
    // Every batch behind a gap fails alike: the first is logged, then at most a line every 10 s
    // while the gap stays (not one per batch, for as long as trading goes on).
    let gap: { lastSeq: number; report: (line: string) => void } | undefined;
    this.worker.on('failed', (job, error) => {
      if (error instanceof ShutdownError) return;
      const line = `shard ${this.shard}: batch ${job?.data.fromSeq}..${job?.data.toSeq} FAILED and waits in the failed set: ${error.message}`;
      if (!(error instanceof SequenceGapError)) return this.log(line);
      if (gap?.lastSeq !== error.lastSeq) gap = { lastSeq: error.lastSeq, report: throttledLog((l) => this.log(l)) };
      gap.report(line);
    });
    // At most a line every 10 s: while Redis is away the worker reports each reconnect attempt
    // (≈ 1 line per shard a second).
    const report = throttledLog((line) => this.log(line));
    this.worker.on('error', (error) => report(`shard ${this.shard}: worker error: ${error.message}`));
    const every = this.options.healIntervalMs ?? 5000;
    this.timer = setInterval(() => void this.healFailed(), every);
    this.timer.unref();
  }

  private async process(job: Job<ShardJob>): Promise<void> {
    this.committed(job, await this.committer.submit(job));
  }

  private committed(job: Job<ShardJob>, outcome: JobOutcome): void {
    this.options.onCommitted?.({
      shard: this.shard,
      fromSeq: job.data.fromSeq,
      toSeq: job.data.toSeq,
      events: outcome.events,
      trades: outcome.trades,
      replay: outcome.kind === 'replay',
      enqueuedAt: job.timestamp,
      committedAt: Date.now(),
    });
  }

  /** Applies a batch, waiting out connection losses, deadlocks and restarts of Postgres. */
  private async applyPatiently(batches: ShardJob | ShardJob[]): Promise<ApplyOutcome> {
    const list = Array.isArray(batches) ? batches : [batches];
    const range = `${list[0]!.fromSeq}..${list[list.length - 1]!.toSeq}`;
    let wait = this.options.retryInitialMs ?? 50;
    const longest = this.options.retryMaxMs ?? 5000;
    for (;;) {
      try {
        return await this.options.ledger.apply(list);
      } catch (error) {
        if (!isTransient(error)) throw error;
        if (this.closing) throw new ShutdownError(`shard ${this.shard}: stopping while Postgres is unavailable`);
        this.log(`shard ${this.shard}: batches ${range} wait ${wait} ms for Postgres: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, longest);
      }
    }
  }

  /**
   * Applies, in sequence order, batches of this shard found in the given states (by default
   * failed, active — a crashed worker's —, delayed and waiting); failed ones that are now in the
   * ledger are removed.
   */
  heal(skip: ReadonlySet<string> = new Set(), states: HealState[] = GAP_STATES): Promise<void> {
    if (this.healing === null) {
      this.healing = this.healOnce(skip, states).finally(() => {
        this.healing = null;
      });
    }
    return this.healing;
  }

  private async healOnce(skip: ReadonlySet<string>, states: HealState[]): Promise<void> {
    const found = await this.queue.getJobs(states, 0, HEAL_SCAN - 1, true);
    const byId = new Map<string, Job<ShardJob>>();
    for (const job of found) {
      if (job?.id !== undefined && !skip.has(job.id) && job.data?.shard === this.shard) byId.set(job.id, job);
    }
    const jobs = [...byId.values()].sort((a, b) => a.data.fromSeq - b.data.fromSeq);
    for (const job of jobs) {
      let outcome: ApplyOutcome;
      try {
        outcome = await this.applyPatiently(job.data);
      } catch (error) {
        this.log(
          `shard ${this.shard}: heal stopped at batch ${job.data.fromSeq}..${job.data.toSeq}: ${(error as Error).message}`,
        );
        return;
      }
      if (outcome.kind === 'gap') return;
      if (await job.isFailed()) {
        if (outcome.kind === 'applied')
          this.committed(job, { kind: 'applied', events: outcome.events, trades: outcome.trades });
        await job.remove().catch(() => undefined);
      }
    }
  }

  private async healFailed(): Promise<void> {
    if (this.closing || this.healing !== null) return;
    try {
      if ((await this.queue.getFailedCount()) > 0) await this.heal(new Set(), RESTART_STATES);
    } catch (error) {
      this.log(`shard ${this.shard}: heal check failed: ${(error as Error).message}`);
    }
  }

  /** Waits for the batch in hand, then stops; nothing is lost (the queue keeps the rest). */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.worker?.close();
    await this.healing?.catch(() => undefined);
    await this.queue.close();
  }
}

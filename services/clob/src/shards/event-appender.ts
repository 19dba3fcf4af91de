// A shard's appends of its events to its BullMQ queue, group-committed: while one job is on its way
// to Redis, the batches matched meanwhile wait and then go together as the next job (their
// sequence numbers are consecutive), so a busy shard makes fewer, larger appends and an idle one
// appends at once.
//
// The engine has already acted on a batch when its events get here, so an append that fails is
// never given up: it is tried again, the same job with the same sequence range, until Redis takes
// it, and the batches behind it wait. Their waiters (the shard's replies, and so the orders' acks)
// are answered only once their events are stored. Giving up would have the front end release
// reservations of orders the engine kept, and leave a gap in the sequence ingest reads. A job
// that did reach Redis before its failure was reported is stored twice; ingest skips the copy
// (its range is at or below what the ledger has applied).
import type { ShardEvent, ShardJob } from '@pmx/events';
import { logger } from '@pmx/config';

export interface EventAppenderOptions {
  /** Waits before retry `attempt` (1, 2, …) of a failed append; default 100 ms doubling to 5 s. */
  retryDelayMs?: (attempt: number) => number;
  log?: (line: string) => void;
}

export class EventAppender {
  private waitingEvents: ShardEvent[] = [];
  private waitingToSeq = 0;
  private waiters: (() => void)[] = [];
  private appending = false;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly log: (line: string) => void;

  constructor(
    private readonly shard: number,
    /** Stores one job (BullMQ's `queue.add`). */
    private readonly add: (job: ShardJob) => Promise<unknown>,
    options: EventAppenderOptions = {},
  ) {
    this.retryDelayMs = options.retryDelayMs ?? ((attempt) => Math.min(5000, 100 * 2 ** (attempt - 1)));
    this.log = options.log ?? ((line) => logger('clob.shards').warn(line));
  }

  /** Resolves once `events` (up to sequence `toSeq`) are stored; never rejects. */
  append(events: ShardEvent[], toSeq: number): Promise<void> {
    return new Promise((resolve) => {
      for (const event of events) this.waitingEvents.push(event);
      this.waitingToSeq = toSeq;
      this.waiters.push(resolve);
      if (!this.appending) void this.appendWaiting();
    });
  }

  private async appendWaiting(): Promise<void> {
    this.appending = true;
    while (this.waitingEvents.length > 0) {
      const events = this.waitingEvents;
      const answered = this.waiters;
      this.waitingEvents = [];
      this.waiters = [];
      await this.store({ shard: this.shard, fromSeq: events[0]!.seq, toSeq: this.waitingToSeq, events });
      for (const resolve of answered) resolve();
    }
    this.appending = false;
  }

  private async store(job: ShardJob): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.add(job);
        if (attempt > 1)
          this.log(`shard ${this.shard}: events ${job.fromSeq}..${job.toSeq} stored on attempt ${attempt}`);
        return;
      } catch (error) {
        const delay = this.retryDelayMs(attempt);
        this.log(
          `shard ${this.shard}: storing events ${job.fromSeq}..${job.toSeq} failed (${error instanceof Error ? error.message : String(error)}); the shard waits and tries again in ${delay} ms`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

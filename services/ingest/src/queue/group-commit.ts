// Group commit for one shard: the jobs the worker holds at once are applied in sequence order,
// as many consecutive batches as are in hand per transaction. A transaction has a fixed cost
// (round trips, statements, the commit's fsync) of ~10–20 ms on a loaded 2-core machine, while
// a busy front end enqueues many small batches; grouping them is what lets ingest keep up.
// Each job's promise settles once its batch is committed (or found already committed).

import type { Job } from 'bullmq';
import type { ApplyOutcome, ShardLedger } from '../ledger/shard-ledger.ts';
import type { ShardJob } from '@pmx/events';

export interface JobOutcome {
  /** 'applied' in this process, or 'replay' when the ledger already had it. */
  kind: 'applied' | 'replay';
  events: number;
  trades: number;
}

export interface GroupCommitOptions {
  ledger: ShardLedger;
  /** Applies consecutive batches in one transaction, waiting out database outages; throws what cannot be waited out. */
  apply: (batches: ShardJob[]) => Promise<ApplyOutcome>;
  /** Looks for missing batches in the queue's other states and applies them. */
  heal: (skipJobIds: Set<string>) => Promise<void>;
  /** How long a batch ahead of a gap waits for its predecessor to reach this worker. */
  gapWaitMs: number;
  /** The error for batches whose predecessor cannot be found. */
  gapError: (job: ShardJob, lastSeq: number) => Error;
}

interface Pending {
  job: Job<ShardJob>;
  resolve: (outcome: JobOutcome) => void;
  reject: (error: unknown) => void;
}

function outcomeOf(job: ShardJob, kind: JobOutcome['kind']): JobOutcome {
  return kind === 'applied'
    ? { kind, events: job.events.length, trades: job.events.filter((e) => e.type === 'trade').length }
    : { kind, events: 0, trades: 0 };
}

export class GroupCommitter {
  private readonly pending: Pending[] = [];
  private draining = false;

  constructor(private readonly options: GroupCommitOptions) {}

  submit(job: Job<ShardJob>): Promise<JobOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ job, resolve, reject });
      this.kick();
    });
  }

  /**
   * Drains on the next turn, so that the jobs the worker fetches together land in one group. A
   * drain that fails outside a batch (Postgres or Redis away while reading the offset or healing)
   * leaves the jobs in hand and tries again a second later.
   */
  private kick(delayMs = 0): void {
    if (this.draining) return;
    this.draining = true;
    const run = (): void => {
      let failed = false;
      this.drain()
        .catch(() => {
          failed = true;
        })
        .finally(() => {
          this.draining = false;
          if (this.pending.length > 0) this.kick(failed ? 1000 : 0);
        });
    };
    if (delayMs > 0) setTimeout(run, delayMs);
    else setImmediate(run);
  }

  private async drain(): Promise<void> {
    let waitedForGap = false;
    while (this.pending.length > 0) {
      this.pending.sort((a, b) => a.job.data.fromSeq - b.job.data.fromSeq);
      const last = await this.options.ledger.knownLastSeq();
      const head = this.pending[0]!;
      if (head.job.data.toSeq <= last) {
        // Already in the ledger (a redelivery, or a batch a heal applied): the ledger verifies it.
        this.pending.shift();
        await this.settle([head], () => this.options.apply([head.job.data]));
        continue;
      }
      if (head.job.data.fromSeq > last + 1) {
        if (!waitedForGap) {
          waitedForGap = true;
          await this.awaitPredecessor(last);
          continue;
        }
        await this.options.heal(new Set(this.pending.map((p) => p.job.id!)));
        if ((await this.options.ledger.knownLastSeq()) > last) continue;
        for (const stuck of this.pending.splice(0)) stuck.reject(this.options.gapError(stuck.job.data, last));
        return;
      }
      waitedForGap = false;
      let next = head.job.data.toSeq + 1;
      let count = 1;
      while (count < this.pending.length && this.pending[count]!.job.data.fromSeq <= next) {
        next = Math.max(next, this.pending[count]!.job.data.toSeq + 1);
        count++;
      }
      const group = this.pending.splice(0, count);
      await this.commitGroup(group);
    }
  }

  /** Gives the worker a moment to hand over the missing batch (it may be fetching it right now). */
  private async awaitPredecessor(last: number): Promise<void> {
    const deadline = Date.now() + this.options.gapWaitMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (this.pending.some((p) => p.job.data.fromSeq <= last + 1)) return;
    }
  }

  private async commitGroup(group: Pending[]): Promise<void> {
    if (group.length === 1) {
      await this.settle(group, () => this.options.apply([group[0]!.job.data]));
      return;
    }
    try {
      const outcome = await this.options.apply(group.map((p) => p.job.data));
      this.resolveAll(group, outcome);
    } catch {
      // One batch of the group is at fault: apply them one by one so that only it fails.
      for (const pending of group) await this.settle([pending], () => this.options.apply([pending.job.data]));
    }
  }

  private async settle(group: Pending[], apply: () => Promise<ApplyOutcome>): Promise<void> {
    try {
      this.resolveAll(group, await apply());
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  }

  private resolveAll(group: Pending[], outcome: ApplyOutcome): void {
    for (const pending of group) {
      // The ledger was not where this process last saw it: back in line, decided on the next pass.
      if (outcome.kind === 'gap') this.pending.push(pending);
      else pending.resolve(outcomeOf(pending.job.data, outcome.kind === 'applied' ? 'applied' : 'replay'));
    }
  }
}

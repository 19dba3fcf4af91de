// The group committer against a fake ledger: sequence order whatever the arrival order, one
// transaction per run of consecutive batches, and a faulty batch failing alone.
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { ShardJob } from '@pmx/events';
import type { ApplyOutcome, ShardLedger } from '../ledger/shard-ledger.ts';
import { GroupCommitter } from './group-commit.ts';

function batch(fromSeq: number, toSeq: number): Job<ShardJob> {
  return { id: `${fromSeq}`, data: { shard: 0, fromSeq, toSeq, events: [] } } as unknown as Job<ShardJob>;
}

function fakeLedger(poison = new Set<number>(), gapWaitMs = 20) {
  const state = { last: 0, transactions: [] as [number, number][] };
  const ledger = { knownLastSeq: async () => state.last } as unknown as ShardLedger;
  const apply = async (batches: ShardJob[]): Promise<ApplyOutcome> => {
    if (batches.some((b) => poison.has(b.fromSeq)))
      throw new Error(`batch ${batches.find((b) => poison.has(b.fromSeq))!.fromSeq} is poison`);
    const from = batches[0]!.fromSeq;
    const to = Math.max(...batches.map((b) => b.toSeq));
    if (to <= state.last) return { kind: 'duplicate', lastSeq: state.last };
    if (from > state.last + 1) return { kind: 'gap', lastSeq: state.last, expected: state.last + 1, got: from };
    state.transactions.push([from, to]);
    state.last = to;
    return { kind: 'applied', lastSeq: to, events: 0, trades: 0, midpoints: [] };
  };
  const committer = new GroupCommitter({
    ledger,
    apply,
    heal: async () => undefined,
    gapWaitMs,
    gapError: (job, last) => new Error(`gap before ${job.fromSeq} (ledger at ${last})`),
  });
  return { state, committer };
}

describe('GroupCommitter', () => {
  it('applies the batches in hand in sequence order, in one transaction, whatever the order they arrive in', async () => {
    const { state, committer } = fakeLedger();
    const outcomes = await Promise.all([batch(4, 6), batch(1, 3), batch(7, 7)].map((job) => committer.submit(job)));
    expect(outcomes.map((o) => o.kind)).toEqual(['applied', 'applied', 'applied']);
    expect(state.transactions).toEqual([[1, 7]]);
    expect(await committer.submit(batch(1, 3))).toMatchObject({ kind: 'replay' });
  });

  it('fails a faulty batch alone; what follows it waits for it as a gap', async () => {
    const { state, committer } = fakeLedger(new Set([4]));
    const results = await Promise.allSettled(
      [batch(1, 3), batch(4, 6), batch(7, 9)].map((job) => committer.submit(job)),
    );
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.kind : (r.reason as Error).message))).toEqual([
      'applied',
      'batch 4 is poison',
      'gap before 7 (ledger at 3)',
    ]);
    expect(state.transactions).toEqual([[1, 3]]);
  });

  it('holds a batch ahead of a gap until its predecessor arrives', async () => {
    const { state, committer } = fakeLedger(new Set(), 10_000);
    const later = committer.submit(batch(3, 4));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await committer.submit(batch(1, 2));
    await later;
    expect(state.last).toBe(4);
  });
});

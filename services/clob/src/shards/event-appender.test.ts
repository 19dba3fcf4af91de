// The shard's event appends without Redis: group commit, order, and a failing store retried (the
// same job, same range) rather than given up, with the waiters answered only once it is stored.
import { describe, expect, it } from 'vitest';
import type { ShardEvent, ShardJob } from '@pmx/events';
import { EventAppender } from './event-appender.ts';

const event = (seq: number) =>
  ({ type: 'expired', seq, orderId: `0x${seq}`, owner: 'a', market: 'm' }) as unknown as ShardEvent;

/** A store whose calls the test settles one by one. */
function controlledStore() {
  const calls: { job: ShardJob; resolve: () => void; reject: (error: Error) => void }[] = [];
  const add = (job: ShardJob) => new Promise<void>((resolve, reject) => calls.push({ job, resolve, reject }));
  return { calls, add };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('EventAppender', () => {
  it('appends at once when idle, and group-commits what arrives while a job is out', async () => {
    const store = controlledStore();
    const appender = new EventAppender(2, store.add);
    const first = appender.append([event(1), event(2)], 2);
    const second = appender.append([event(3)], 3);
    const third = appender.append([event(4), event(5)], 5);
    expect(store.calls.map((c) => [c.job.fromSeq, c.job.toSeq])).toEqual([[1, 2]]);
    store.calls[0]!.resolve();
    await first;
    await tick();
    expect(store.calls.map((c) => [c.job.shard, c.job.fromSeq, c.job.toSeq, c.job.events.length])).toEqual([
      [2, 1, 2, 2],
      [2, 3, 5, 3],
    ]);
    store.calls[1]!.resolve();
    await Promise.all([second, third]);
  });

  it('retries a failed store with the same job until it is taken, answering its waiters only then', async () => {
    const store = controlledStore();
    const lines: string[] = [];
    const appender = new EventAppender(0, store.add, { retryDelayMs: () => 1, log: (line) => lines.push(line) });
    let done = false;
    const appended = appender.append([event(7), event(8)], 8).then(() => (done = true));
    store.calls[0]!.reject(new Error('OOM command not allowed when used memory > maxmemory'));
    await tick();
    const later = appender.append([event(9)], 9);
    store.calls[1]!.reject(new Error('connection lost'));
    await tick();
    expect(done).toBe(false);
    expect(store.calls.map((c) => [c.job.fromSeq, c.job.toSeq])).toEqual([
      [7, 8],
      [7, 8],
      [7, 8],
    ]);
    store.calls[2]!.resolve();
    await appended;
    await tick();
    // The batch that waited behind the failures goes next, in order.
    expect(store.calls.map((c) => [c.job.fromSeq, c.job.toSeq]).slice(3)).toEqual([[9, 9]]);
    store.calls[3]!.resolve();
    await later;
    expect(lines[0]).toContain('shard 0: storing events 7..8 failed (OOM command not allowed');
    expect(lines.at(-1)).toBe('shard 0: events 7..8 stored on attempt 3');
  });
});

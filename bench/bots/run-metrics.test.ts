// The run's counters: rejection reasons group without per-order details, the history's lag behind
// the ledger, and how long a 429 makes a bot wait.
import { describe, expect, it } from 'vitest';
import { historyLags, type ExchangeSample } from './exchange-sampler.ts';
import { retryAfterMs } from './exchange-http.ts';
import { reasonOf } from './run-metrics.ts';

describe('reasonOf', () => {
  it('groups refusals without order ids and figures', () => {
    const id = `0x${'ab'.repeat(32)}`;
    expect(reasonOf(`order ${id} is invalid. Duplicated.`)).toBe('order {id} is invalid. Duplicated.');
    expect(reasonOf('Too many orders in payload: 16, max allowed: 15')).toBe(
      'Too many orders in payload: 16, max allowed: {n}',
    );
  });
});

describe('historyLags', () => {
  const sample = (t: number, ledgerNewestMs: number | null, historyNewestMs: number | null): ExchangeSample => ({
    t,
    queueDepth: 0,
    ledgerLagMs: 0,
    ledgerNewestMs,
    historyNewestMs,
    cpu: {},
  });

  it('is how far the newest trade in the history is behind the newest in the ledger', () => {
    const samples = [sample(0, 1000, 900), sample(0.5, 1200, 1200), sample(1, 1500, null)];
    expect(historyLags(samples)).toEqual([100, 0, null]);
  });

  it('is 0 before the first trade', () => {
    expect(historyLags([sample(0, null, null)])).toEqual([0]);
  });
});

describe('retryAfterMs', () => {
  it('waits what Retry-After says, at least 50 ms, at most a minute, 1 s when it says nothing readable', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(50);
    expect(retryAfterMs('600')).toBe(60_000);
    expect(retryAfterMs(undefined)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
  });
});

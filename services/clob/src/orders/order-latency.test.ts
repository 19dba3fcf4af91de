import { describe, expect, it } from 'vitest';
import { LatencyHistogram, OrderLatency } from './order-latency.ts';

describe('LatencyHistogram', () => {
  it('reports nothing before the first sample', () => {
    expect(new LatencyHistogram().summary()).toEqual({ count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0 });
  });

  it('reports percentiles within 5 % above the true value, and the exact maximum', () => {
    const histogram = new LatencyHistogram();
    for (let ms = 1; ms <= 1000; ms++) histogram.record(ms);
    const summary = histogram.summary();
    expect(summary.count).toBe(1000);
    for (const [reported, actual] of [
      [summary.p50Ms, 500],
      [summary.p90Ms, 900],
      [summary.p99Ms, 990],
    ] as const) {
      expect(reported).toBeGreaterThanOrEqual(actual);
      expect(reported).toBeLessThanOrEqual(actual * 1.05);
    }
    expect(summary.maxMs).toBe(1000);
  });

  it('keeps sub-microsecond and very long samples without losing the maximum', () => {
    const histogram = new LatencyHistogram();
    histogram.record(0);
    histogram.record(0.0004);
    histogram.record(3_600_000);
    expect(histogram.summary()).toEqual({
      count: 3,
      p50Ms: 0.001,
      p90Ms: 3_600_000,
      p99Ms: 3_600_000,
      maxMs: 3_600_000,
    });
  });
});

describe('OrderLatency', () => {
  it('counts matches and totals apart, and a reset hands back the report so far and starts again', () => {
    let now = Date.parse('2026-11-23T08:00:00Z');
    const latency = new OrderLatency(() => now);
    latency.recordSignatureCheck(2);
    latency.recordSignatureCheck(4);
    latency.recordMatch(3);
    latency.recordTotal(8);
    now += 60_000;
    const before = latency.reset();
    expect(before.since).toBe('2026-11-23T08:00:00.000Z');
    expect([before.signatureCheck.count, before.match.count, before.total.count]).toEqual([2, 1, 1]);
    expect(before.total.maxMs).toBe(8);
    const after = latency.report();
    expect(after.since).toBe('2026-11-23T08:01:00.000Z');
    expect([after.signatureCheck.count, after.match.count, after.total.count]).toEqual([0, 0, 0]);
  });
});

import { describe, expect, it } from 'vitest';
import { dueCount } from './raw-load.ts';

describe('paced schedule', () => {
  it('makes request k due at k/rate, not one interval later', () => {
    // 200/s: requests at 0, 5, 10 … ms.
    expect(dueCount(0, 200, 100)).toBe(1);
    expect(dueCount(4.99, 200, 100)).toBe(1);
    expect(dueCount(5, 200, 100)).toBe(2);
    expect(dueCount(10.5, 200, 100)).toBe(3);
    // 1700/s: request 17 is due at 10 ms.
    expect(dueCount(10, 1700, 1000)).toBe(18);
  });

  it('never makes more due than there are', () => {
    expect(dueCount(60_000, 200, 100)).toBe(100);
  });
});

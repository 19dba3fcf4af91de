import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';

function clock(start: number): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('createRateLimiter', () => {
  it('allows limit requests per key per window, then denies until the window ends', () => {
    const time = clock(1_000_000);
    const limiter = createRateLimiter({ limit: 3, windowMs: 10_000, now: time.now });
    expect([1, 2, 3].map(() => limiter.take('ip-a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('ip-a')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 10 });
    expect(limiter.take('ip-b')).toMatchObject({ allowed: true, remaining: 2 });
    time.advance(7_500);
    expect(limiter.take('ip-a')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 3 });
    time.advance(2_500);
    expect(limiter.take('ip-a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('drops all old counts at once when the window rolls over', () => {
    const time = clock(0);
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: time.now });
    for (let i = 0; i < 100; i++) limiter.take(`k${i}`);
    expect(limiter.size).toBe(100);
    time.advance(1_000);
    expect(limiter.size).toBe(0);
  });

  it('peek does not count', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: () => 0 });
    expect(limiter.peek('k').allowed).toBe(true);
    expect(limiter.peek('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.peek('k').allowed).toBe(false);
  });

  it('give returns one counted request of the key, and nothing below zero', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000, now: () => 0 });
    limiter.take('k');
    limiter.take('k');
    expect(limiter.peek('k').allowed).toBe(false);
    limiter.give('k', 0);
    expect(limiter.take('k').allowed).toBe(true);
    limiter.give('other', 0);
    expect(limiter.size).toBe(1);
  });

  it('give returns nothing in a window the request was not counted in', () => {
    let at = 999;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: () => at });
    limiter.take('k');
    at = 1_000;
    limiter.take('k');
    limiter.give('k', 999); // taken in the window before: this one's count stays
    expect(limiter.peek('k').allowed).toBe(false);
  });

  it('never tells a client to retry in less than a second', () => {
    const limiter = createRateLimiter({ limit: 0, windowMs: 1_000, now: () => 999.9 });
    expect(limiter.take('k').retryAfterSeconds).toBe(1);
  });
});

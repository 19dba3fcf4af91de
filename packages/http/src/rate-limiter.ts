// Fixed-window request counter keyed by a string (client IP, API key). Windows are aligned to
// the clock (floor(now / windowMs)), so when a window ends every count ends with it and cleanup
// is dropping one Map: O(1), no timers, no sweeps.

export interface RateLimiterOptions {
  /** Requests allowed per key per window. */
  limit: number;
  windowMs: number;
  /** Clock in ms; default Date.now. */
  now?: () => number;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests left in this window after this one (0 when denied). */
  remaining: number;
  /** Whole seconds until the window resets, at least 1; meaningful when denied. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one request for key if the window still allows it. */
  take(key: string): RateDecision;
  /** Whether one more request for key would be allowed, without counting it. */
  peek(key: string): RateDecision;
  /**
   * Gives back one request counted for key (one a later check refused), if it was counted in this
   * window: `takenAt` is the clock reading when it was taken.
   */
  give(key: string, takenAt: number): void;
  /** Keys counted in the current window. */
  readonly size: number;
}

export function createRateLimiter({ limit, windowMs, now = Date.now }: RateLimiterOptions): RateLimiter {
  if (!(limit >= 0) || !(windowMs > 0)) throw new RangeError('rate limiter: limit must be >= 0 and windowMs > 0');
  let window = -1;
  let counts = new Map<string, number>();

  /** Rolls to the current window (dropping the old counts) and returns ms left in it. */
  function msLeft(): number {
    const at = now();
    const current = Math.floor(at / windowMs);
    if (current !== window) {
      window = current;
      if (counts.size > 0) counts = new Map();
    }
    return (current + 1) * windowMs - at;
  }

  function decide(key: string, count: boolean): RateDecision {
    const left = msLeft();
    const used = counts.get(key) ?? 0;
    const retryAfterSeconds = Math.max(1, Math.ceil(left / 1000));
    if (used >= limit) return { allowed: false, remaining: 0, retryAfterSeconds };
    if (count) counts.set(key, used + 1);
    return { allowed: true, remaining: limit - used - (count ? 1 : 0), retryAfterSeconds };
  }

  return {
    limit,
    windowMs,
    take: (key) => decide(key, true),
    peek: (key) => decide(key, false),
    give: (key, takenAt) => {
      msLeft();
      if (Math.floor(takenAt / windowMs) !== window) return;
      const used = counts.get(key);
      if (used === undefined) return;
      if (used <= 1) counts.delete(key);
      else counts.set(key, used - 1);
    },
    get size() {
      msLeft();
      return counts.size;
    },
  };
}

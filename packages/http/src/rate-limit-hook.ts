// A `before` hook applying several rate windows to one key at once (e.g. 2400/10 s and
// 24000/10 min for trading writes): a request passes only if every window allows it, is counted
// in every window only then, and is otherwise refused with 429 and Retry-After.
import { HttpError } from './http-error.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { RequestContext } from './request-context.ts';
import type { Hook, Locals } from './route.ts';

export interface RateLimitHookOptions<L extends Locals> {
  /** All must allow. Share one limiter between routes for a combined cap. */
  limiters: readonly RateLimiter[];
  /** What to count by (ctx.ip, an API key from ctx.locals, …); undefined skips the limit. */
  key: (ctx: RequestContext<L>) => string | undefined;
  /** Message of the 429 body; default 'too many requests'. */
  message?: string;
}

export function rateLimitHook<L extends Locals = Record<string, unknown>>(options: RateLimitHookOptions<L>): Hook<L> {
  const { limiters, key } = options;
  const message = options.message ?? 'too many requests';
  return (ctx) => {
    const id = key(ctx);
    if (id === undefined) return;
    let retryAfterSeconds = 0;
    for (const limiter of limiters) {
      const decision = limiter.peek(id);
      if (!decision.allowed && decision.retryAfterSeconds > retryAfterSeconds) retryAfterSeconds = decision.retryAfterSeconds;
    }
    if (retryAfterSeconds > 0) {
      throw new HttpError(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
    }
    for (const limiter of limiters) limiter.take(id);
  };
}

// A `before` hook applying several rate windows at once (e.g. 2400/10 s and 24000/10 min for
// trading writes, per client IP and per API key): a request passes only if every window allows
// it, is counted in every counted window only then, and is otherwise refused with 429 and
// Retry-After — so a refused request uses up no budget.
import { HttpError } from './http-error.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { RequestContext } from './request-context.ts';
import type { Hook, Locals } from './route.ts';

export interface RateLimitGroup<L extends Locals> {
  /** All must allow. Share one limiter between routes for a combined cap. */
  limiters: readonly RateLimiter[];
  /** What to count by (ctx.ip, an API key from ctx.locals, …); undefined skips the group. */
  key: (ctx: RequestContext<L>) => string | undefined;
}

export interface RateLimitHookOptions<L extends Locals> extends RateLimitGroup<L> {
  /** Message of the 429 body; default 'too many requests'. */
  message?: string;
}

export function rateLimitHook<L extends Locals = Record<string, unknown>>(options: RateLimitHookOptions<L>): Hook<L> {
  return rateLimitGroupsHook([options], options.message);
}

/** One hook over several groups of windows, each with its own key; all must allow. */
export function rateLimitGroupsHook<L extends Locals = Record<string, unknown>>(
  groups: readonly RateLimitGroup<L>[],
  message = 'too many requests',
): Hook<L> {
  return (ctx) => {
    const ids = groups.map((group) => group.key(ctx));
    let retryAfterSeconds = 0;
    groups.forEach((group, index) => {
      const id = ids[index];
      if (id === undefined) return;
      for (const limiter of group.limiters) {
        const decision = limiter.peek(id);
        if (!decision.allowed && decision.retryAfterSeconds > retryAfterSeconds)
          retryAfterSeconds = decision.retryAfterSeconds;
      }
    });
    if (retryAfterSeconds > 0) {
      throw new HttpError(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
    }
    groups.forEach((group, index) => {
      const id = ids[index];
      if (id === undefined) return;
      for (const limiter of group.limiters) limiter.take(id);
    });
  };
}

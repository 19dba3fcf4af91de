// The contract's catalog limits per client IP and 10 s window: 4000 in general; GET /events…
// 500 and GET /markets… 300 (every path under them); the two listings (GET /events and GET
// /markets themselves) 900 combined; GET /tags… 200; GET /public-search 350. A request passes
// only if all its windows allow it and is then counted in all of them; else 429 + Retry-After.

import {
  createRateLimiter,
  rateLimitKeyOfIp,
  rateLimitHook,
  type Hook,
  type RateLimiter,
  type RequestContext,
} from '@pmx/http';

const WINDOW_MS = 10_000;

export const CATALOG_LIMITS = {
  general: 4000,
  events: 500,
  markets: 300,
  listings: 900,
  tags: 200,
  search: 350,
} as const;

export function catalogRateLimits(
  limits: Record<keyof typeof CATALOG_LIMITS, number> = CATALOG_LIMITS,
  now: () => number = Date.now,
): Hook<any>[] {
  const window = (limit: number) => createRateLimiter({ limit, windowMs: WINDOW_MS, now });
  const general = window(limits.general);
  const events = window(limits.events);
  const markets = window(limits.markets);
  const listings = window(limits.listings);
  const tags = window(limits.tags);
  const search = window(limits.search);

  const windowsOf = (method: string, path: string): RateLimiter[] => {
    const out = [general];
    if (method !== 'GET') return out;
    if (path === '/events' || path.startsWith('/events/')) out.push(events);
    if (path === '/markets' || path.startsWith('/markets/')) out.push(markets);
    if (path === '/events' || path === '/markets') out.push(listings);
    if (path === '/tags' || path.startsWith('/tags/')) out.push(tags);
    if (path === '/public-search') out.push(search);
    return out;
  };
  // An IPv6 client by its /64 (rateLimitKeyOfIp).
  const byIp = (ctx: RequestContext<any>) => rateLimitKeyOfIp(ctx.ip);
  const hooks = new Map<string, Hook<any>>();
  const perRoute: Hook<any> = (ctx) => {
    const key = `${ctx.route.method} ${ctx.route.path}`;
    let hook = hooks.get(key);
    if (hook === undefined)
      hooks.set(key, (hook = rateLimitHook({ limiters: windowsOf(ctx.route.method, ctx.route.path), key: byIp })));
    return hook(ctx);
  };
  return [perRoute];
}

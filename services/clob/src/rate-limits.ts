// The contract's order-book API limits, enforced at the edge: 5000 / 10 s per client IP in
// general, the per-endpoint caps on top, and for trading writes both the burst (2400 / 10 s) and
// the sustained (24000 / 10 min) window, per client IP and per API key at once. A trading write
// counts in its IP's windows at the edge, before auth, whatever auth then says, so a flood failing
// auth (a wrong signature, made-up keys, each a Postgres lookup) cannot go past the IP's
// 2400 / 10 s. It counts in its key's windows once auth has verified the key; a write the key's
// windows refuse gives back what the edge counted (general and the IP's windows).

import type { ApiKeyLocals } from '@pmx/auth';
import {
  createRateLimiter,
  rateLimitKeyOfIp,
  rateLimitGroupsHook,
  rateLimitHook,
  type Hook,
  type RequestContext,
} from '@pmx/http';

const TEN_SECONDS = 10_000;
const TEN_MINUTES = 600_000;

const perWindow = (limit: number) => createRateLimiter({ limit, windowMs: TEN_SECONDS });

/** Per-endpoint caps per 10 s, by "METHOD path pattern". */
const ENDPOINT_CAPS: Record<string, number> = {
  'GET /': 50,
  // The official client's health check under the name the real service also answers.
  'GET /ok': 50,
  'GET /book': 200,
  'POST /books': 80,
  'GET /price': 200,
  'POST /prices': 80,
  // Not in the contract's table: the other batch reads get POST /prices' cap.
  'POST /midpoints': 80,
  'POST /spreads': 80,
  'POST /last-trades-prices': 80,
  'GET /midpoint': 200,
  'GET /prices-history': 100,
  'POST /batch-prices-history': 80,
  'GET /trades': 150,
  // Not in the contract's table: a key is created once per nonce and kept (in Postgres and in
  // memory) until deleted, and wallets cost nothing, so creation is capped per IP.
  'POST /auth/api-key': 20,
};

/** Trading writes share the POST /order or DELETE /order windows. */
const TRADING_WRITES: Record<string, 'place' | 'cancel'> = {
  'POST /order': 'place',
  'POST /orders': 'place',
  'DELETE /order': 'cancel',
  'DELETE /orders': 'cancel',
  'DELETE /cancel-all': 'cancel',
  'DELETE /cancel-market-orders': 'cancel',
};

export interface ClobRateLimits {
  /** Per client IP, before anything else: the general limit and the per-endpoint caps. */
  edge: Hook<any>[];
  /**
   * Per API key on trading writes, after level-2 auth has verified the key (a route hook after it): a
   * request that only names a key, without its secret, must not use up that key's budget (keys
   * are not secret: trades show them), nor fill the limiter with keys of its own making.
   */
  perKey: Hook<ApiKeyLocals>;
}

export function clobRateLimits(): ClobRateLimits {
  // An IPv6 client by its /64 (rateLimitKeyOfIp).
  const byIp = (ctx: RequestContext<any>) => rateLimitKeyOfIp(ctx.ip);
  const byApiKey = (ctx: RequestContext<ApiKeyLocals>) => ctx.locals.apiKey?.apiKey;
  // One hook per route holding the general window and the route's own: a request one window
  // refuses is counted in none (as two hooks, a request the endpoint cap refuses would have used up
  // the general budget, and a client polling a capped endpoint would lock itself out of the API).
  const general = perWindow(5000);
  /** When the edge counted a trading write in the general window (its window is the one to give back in). */
  const countedAt = new WeakMap<RequestContext<any>, number>();
  const generalOnly = rateLimitHook({ limiters: [general], key: byIp });
  const endpoint = new Map<string, Hook<any>>();
  const perKey = new Map<string, Hook<ApiKeyLocals>>();
  for (const [route, cap] of Object.entries(ENDPOINT_CAPS))
    endpoint.set(route, rateLimitHook({ limiters: [general, perWindow(cap)], key: byIp }));
  for (const kind of ['place', 'cancel'] as const) {
    const windows = () => [perWindow(2400), createRateLimiter({ limit: 24_000, windowMs: TEN_MINUTES })];
    const ipWindows = windows();
    // At the edge: the general window and the IP's trading windows count.
    const edgeLimiters = [general, ...ipWindows];
    const ipWindowsHook = rateLimitGroupsHook<any>([{ limiters: edgeLimiters, key: byIp }]);
    const ipHook: Hook<any> = (ctx) => {
      // Read before the windows count: read after, a 10 s boundary in between would give the count
      // back into the next window, where it belongs to another request.
      const at = Date.now();
      ipWindowsHook(ctx);
      countedAt.set(ctx, at);
    };
    const keyWindows = rateLimitGroupsHook<ApiKeyLocals>([{ limiters: windows(), key: byApiKey }]);
    // A write the key's windows refuse gives back what the edge counted: a bot retrying a key over
    // its limit must not lock its host out of the whole API, nor out of its other keys' writes.
    const keyHook: Hook<ApiKeyLocals> = (ctx) => {
      try {
        keyWindows(ctx);
      } catch (error) {
        const at = countedAt.get(ctx);
        if (at !== undefined) for (const limiter of edgeLimiters) limiter.give(byIp(ctx), at);
        throw error;
      }
    };
    for (const [route, which] of Object.entries(TRADING_WRITES)) {
      if (which !== kind) continue;
      endpoint.set(route, ipHook);
      perKey.set(route, keyHook);
    }
  }
  const routeOf = (ctx: RequestContext<any>) => `${ctx.route.method} ${ctx.route.path}`;
  return {
    edge: [(ctx) => (endpoint.get(routeOf(ctx)) ?? generalOnly)(ctx)],
    perKey: (ctx) => perKey.get(routeOf(ctx))?.(ctx),
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';
import { rateLimitHook } from './rate-limit-hook.ts';
import type { Route } from './route.ts';
import { call, serveForTest, type TestServer } from './test-server.ts';

let at = 0;
const now = (): number => at;
const burst = createRateLimiter({ limit: 3, windowMs: 10_000, now });
const sustained = createRateLimiter({ limit: 5, windowMs: 600_000, now });
const perIp = createRateLimiter({ limit: 1000, windowMs: 10_000, now });

const routes: Route[] = [
  {
    method: 'POST',
    path: '/order',
    handler: () => ({ body: { ok: true } }),
    options: { before: [rateLimitHook({ limiters: [burst, sustained], key: (ctx) => ctx.header('svc-api-key') })] },
  },
];

let server: TestServer;
beforeAll(() => {
  server = serveForTest({
    routes,
    errorShape: 'simple',
    hooks: { before: [rateLimitHook({ limiters: [perIp], key: (ctx) => ctx.ip })] },
  });
});
afterAll(() => server.close());

const order = (key: string) =>
  call(`${server.url}/order`, { method: 'POST', body: '{}', headers: { 'svc-api-key': key } });

describe('rateLimitHook', () => {
  it('refuses with 429 and Retry-After once the burst window is spent, then the sustained one', async () => {
    at = 1_000;
    for (let i = 0; i < 3; i++) expect((await order('k1')).status).toBe(200);
    const throttled = await order('k1');
    expect(throttled).toMatchObject({ status: 429, body: { error: 'too many requests' } });
    expect(throttled.headers.get('retry-after')).toBe('9');
    expect((await order('k2')).status).toBe(200);

    // Next burst window: 2 more fit the sustained cap of 5, the third is refused by it alone.
    at = 10_000;
    expect((await order('k1')).status).toBe(200);
    expect((await order('k1')).status).toBe(200);
    const sustainedHit = await order('k1');
    expect(sustainedHit.status).toBe(429);
    expect(sustainedHit.headers.get('retry-after')).toBe('590');
    // Refused requests were not counted in either window.
    expect(burst.peek('k1').remaining).toBe(1);
  });

  it('skips the limit when the key function returns undefined', async () => {
    at = 2_000_000;
    for (let i = 0; i < 5; i++)
      expect((await call(`${server.url}/order`, { method: 'POST', body: '{}' })).status).toBe(200);
  });
});

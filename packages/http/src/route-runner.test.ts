import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from './http-error.ts';
import { createHttpServer } from './http-server.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { rateLimitHook } from './rate-limit-hook.ts';
import type { Hook, Route } from './route.ts';
import { call, serveForTest, type TestServer } from './test-server.ts';

interface TradingLocals {
  apiKey: string;
  trace: string[];
}

const requireApiKey: Hook<TradingLocals> = (ctx) => {
  const key = ctx.header('svc_api_key');
  if (key === undefined) throw new HttpError(401, 'missing credentials');
  ctx.locals.apiKey = key;
  ctx.locals.trace.push('auth');
};

const slowAllowlist: Hook<TradingLocals> = async (ctx) => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  if (ctx.ip === '10.9.9.9') throw new HttpError(401, 'unauthorized: ip_not_allowlisted');
  ctx.locals.trace.push('allowlist');
};

// A hook that needs no locals fits any route's hook list.
const anyRouteHook: Hook<object> = (ctx) => {
  if (ctx.header('x-block') !== undefined) throw new HttpError(401, 'blocked');
};

const perKey = createRateLimiter({ limit: 1, windowMs: 60_000 });

const routes: Route<TradingLocals>[] = [
  {
    method: 'POST',
    path: '/order',
    handler: (ctx) => ({ body: { apiKey: ctx.locals.apiKey, trace: ctx.locals.trace, order: ctx.json() } }),
    options: { before: [anyRouteHook, requireApiKey, slowAllowlist] },
  },
  {
    method: 'DELETE',
    path: '/order',
    handler: () => ({ body: { cancelled: true } }),
    // Keyed by what an earlier hook attached: the per-API-key limit of trading writes.
    options: { before: [requireApiKey, rateLimitHook({ limiters: [perKey], key: (ctx) => ctx.locals.apiKey })] },
  },
  { method: 'GET', path: '/open', handler: (ctx) => ({ body: { trace: ctx.locals.trace } }) },
  {
    method: 'GET',
    path: '/faulty-hook',
    handler: () => ({ body: 'unreached' }),
    options: {
      before: [
        () => {
          throw new Error('hook bug');
        },
      ],
    },
  },
  {
    method: 'GET',
    path: '/immediate',
    handler: (ctx) => ({ body: { trace: ctx.locals.trace } }),
    options: { immediate: true },
  },
  { method: 'GET', path: '/immediate/:id', handler: async () => ({ body: 'late' }), options: { immediate: true } },
  {
    method: 'GET',
    path: '/immediate-hook',
    handler: () => ({ body: 'unreached' }),
    options: { immediate: true, before: [slowAllowlist] },
  },
];
const faults: string[] = [];

let server: TestServer;
beforeAll(() => {
  server = serveForTest<TradingLocals>({
    routes,
    errorShape: 'simple',
    hooks: {
      before: [
        (ctx) => {
          ctx.locals.trace = ['server'];
        },
      ],
      onError: (error) => faults.push(String(error)),
    },
  });
});
afterAll(() => server.close());

describe('before hooks', () => {
  it('run server hooks then route hooks, sync and async, and pass locals to the handler', async () => {
    const r = await call(`${server.url}/order`, {
      method: 'POST',
      body: '{"side":"BUY"}',
      headers: { 'svc-api-key': 'key-1' },
    });
    expect(r).toMatchObject({
      status: 200,
      body: { apiKey: 'key-1', trace: ['server', 'auth', 'allowlist'], order: { side: 'BUY' } },
    });
    expect((await call(`${server.url}/open`)).body).toEqual({ trace: ['server'] });
  });

  it('reject with their HttpError before the handler runs', async () => {
    expect(await call(`${server.url}/order`, { method: 'POST', body: '{}' })).toMatchObject({
      status: 401,
      body: { error: 'missing credentials' },
    });
    const fromBlockedIp = await call(`${server.url}/order`, {
      method: 'POST',
      body: '{}',
      headers: { 'svc-api-key': 'k', 'x-forwarded-for': '10.9.9.9' },
    });
    expect(fromBlockedIp).toMatchObject({ status: 401, body: { error: 'unauthorized: ip_not_allowlisted' } });
  });

  it('can key a rate limit on what an earlier hook attached', async () => {
    const cancel = (key: string) => call(`${server.url}/order`, { method: 'DELETE', headers: { 'svc-api-key': key } });
    expect((await cancel('key-a')).status).toBe(200);
    expect((await cancel('key-a')).status).toBe(429);
    expect((await cancel('key-b')).status).toBe(200);
  });

  it('turn a hook fault into a generic 500', async () => {
    expect(await call(`${server.url}/faulty-hook`)).toMatchObject({
      status: 500,
      body: { error: 'internal server error' },
    });
  });
});

describe('immediate routes', () => {
  it('answer at once, and one that goes async is a fault answered with 500 (uWS never waits on it)', async () => {
    faults.length = 0;
    expect(await call(`${server.url}/immediate`)).toMatchObject({ status: 200, body: { trace: ['server'] } });
    expect(await call(`${server.url}/immediate/7`)).toMatchObject({
      status: 500,
      body: { error: 'internal server error' },
    });
    expect(await call(`${server.url}/immediate-hook`)).toMatchObject({
      status: 500,
      body: { error: 'internal server error' },
    });
    expect(faults).toEqual([
      'Error: GET /immediate/:id is declared immediate but returned a promise',
      'Error: GET /immediate-hook is declared immediate but returned a promise',
    ]);
  });

  it('are listed for a front to share, apart from the other GET routes', () => {
    const http = createHttpServer<TradingLocals>({ routes, errorShape: 'simple' });
    expect(http.immediateGets).toEqual(['/immediate', '/immediate/:id', '/immediate-hook']);
    expect(http.otherGets).toEqual(['/open', '/faulty-hook']);
  });
});

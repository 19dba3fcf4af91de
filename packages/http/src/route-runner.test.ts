import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from './http-error.ts';
import { createHttpServer } from './http-server.ts';
import type { RequestContext } from './request-context.ts';
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
    options: { before: [requireApiKey] },
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
];
const faults: string[] = [];

const hooks = {
  before: [
    (ctx: RequestContext<TradingLocals>) => {
      ctx.locals.trace = ['server'];
    },
  ],
  onError: (error: unknown) => faults.push(String(error)),
};

let server: TestServer;
beforeAll(() => {
  server = serveForTest<TradingLocals>({ routes, errorShape: 'simple', hooks });
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
  });

  it("take the client address from X-Forwarded-For on the edge's Unix socket only, never from a direct client", async () => {
    const forged = await call(`${server.url}/order`, {
      method: 'POST',
      body: '{}',
      headers: { 'svc-api-key': 'k', 'x-forwarded-for': '10.9.9.9' },
    });
    expect(forged).toMatchObject({ status: 200, body: { trace: ['server', 'auth', 'allowlist'] } });
    const dir = await mkdtemp(join(tmpdir(), 'pmx-http-test-'));
    const listening = createHttpServer<TradingLocals>({ routes, errorShape: 'simple', hooks }).listen(0, '127.0.0.1', {
      unixPath: join(dir, 'edge.sock'),
    });
    try {
      const viaEdge = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          {
            socketPath: join(dir, 'edge.sock'),
            path: '/order',
            method: 'POST',
            headers: { 'svc-api-key': 'k', 'x-forwarded-for': '10.9.9.9' },
          },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode!, body }));
          },
        );
        request.on('error', reject);
        request.end('{}');
      });
      expect(viaEdge).toEqual({ status: 401, body: '{"error":"unauthorized: ip_not_allowlisted"}' });
    } finally {
      await listening.close({ graceMs: 0 });
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('turn a hook fault into a generic 500', async () => {
    expect(await call(`${server.url}/faulty-hook`)).toMatchObject({
      status: 500,
      body: { error: 'internal server error' },
    });
  });
});

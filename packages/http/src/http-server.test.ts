import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.ts';
import { HttpError } from './http-error.ts';
import type { Route } from './route.ts';
import { call, serveForTest, type TestServer } from './test-server.ts';

const faults: string[] = [];

const routes: Route[] = [
  {
    method: 'GET',
    path: '/markets/:condition_id',
    handler: (ctx) => ({ body: { id: ctx.params.condition_id, path: ctx.path } }),
  },
  { method: 'GET', path: '/markets/:condition_id/book/:side', handler: (ctx) => ({ body: ctx.params }) },
  { method: 'GET', path: '/markets/featured', handler: () => ({ body: { featured: true } }) },
  {
    method: 'GET',
    path: '/query',
    handler: (ctx) => ({
      body: { a: ctx.query.getAll('a'), b: ctx.query.get('b'), missing: ctx.query.get('zz'), raw: ctx.rawQuery },
    }),
  },
  { method: 'GET', path: '/headers', handler: (ctx) => ({ body: { key: ctx.header('SVC_API_KEY') } }) },
  { method: 'POST', path: '/echo', handler: (ctx) => ({ status: 201, body: { got: ctx.json() } }) },
  { method: 'DELETE', path: '/echo', handler: (ctx) => ({ body: { deleted: ctx.json<{ id: string }>().id } }) },
  {
    method: 'POST',
    path: '/sign',
    handler: (ctx) => ({
      body: { hmac: createHmac('sha256', 'secret').update(ctx.rawBody).digest('hex'), text: ctx.bodyText },
    }),
  },
  {
    method: 'POST',
    path: '/small',
    handler: (ctx) => ({ body: { n: ctx.rawBody.length } }),
    options: { maxBodyBytes: 16 },
  },
  {
    method: 'GET',
    path: '/missing/:id',
    handler: (ctx) => {
      throw new HttpError(404, `id not found: ${ctx.params.id}`);
    },
  },
  {
    method: 'GET',
    path: '/throttled',
    handler: () => {
      throw new HttpError(429, 'slow down', { headers: { 'retry-after': '7' } });
    },
  },
  {
    method: 'GET',
    path: '/boom',
    handler: () => {
      throw new Error('secret internals /etc/passwd');
    },
  },
  {
    method: 'GET',
    path: '/boom-async',
    handler: async () => {
      throw new Error('async secret');
    },
  },
  { method: 'GET', path: '/bigint', handler: () => ({ body: { n: 1n } }) },
  {
    method: 'GET',
    path: '/slow',
    handler: async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { body: { slow: true, ip: ctx.ip } };
    },
  },
  { method: 'GET', path: '/raw', handler: () => ({ body: '{"pre":"serialised"}', headers: { 'x-extra': 'yes' } }) },
  { method: 'GET', path: '/text', handler: () => ({ body: 'plain', headers: { 'content-type': 'text/plain' } }) },
  { method: 'PUT', path: '/things/:id', handler: (ctx) => ({ body: { put: ctx.params.id } }) },
  { method: 'PATCH', path: '/things/:id', handler: (ctx) => ({ body: { patch: ctx.params.id } }) },
];

let simple: TestServer;
let typed: TestServer;

beforeAll(() => {
  simple = serveForTest({
    routes,
    errorShape: 'simple',
    hooks: { onError: (_e, route) => faults.push(`${route.method} ${route.path}`) },
  });
  typed = serveForTest({ routes, errorShape: 'typed', hooks: { onError: () => {} } });
});
afterAll(async () => {
  await simple.close();
  await typed.close();
});

const postJson = (body: string, method = 'POST'): RequestInit => ({
  method,
  body,
  headers: { 'content-type': 'application/json' },
});

describe('routing', () => {
  it('passes decoded path parameters by name', async () => {
    const r = await call(`${simple.url}/markets/0xabc%20def`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toEqual({ id: '0xabc def', path: '/markets/0xabc%20def' });
    expect((await call(`${simple.url}/markets/0x1/book/buy`)).body).toEqual({ condition_id: '0x1', side: 'buy' });
  });

  it('prefers a static segment over a parameter', async () => {
    expect((await call(`${simple.url}/markets/featured`)).body).toEqual({ featured: true });
  });

  it('serves PUT and PATCH', async () => {
    expect((await call(`${simple.url}/things/7`, { method: 'PUT' })).body).toEqual({ put: '7' });
    expect((await call(`${simple.url}/things/7`, { method: 'PATCH' })).body).toEqual({ patch: '7' });
  });

  it('answers an unknown path with 404 in the server shape', async () => {
    expect(await call(`${simple.url}/nope`)).toMatchObject({ status: 404, body: { error: 'not found' } });
    expect(await call(`${typed.url}/nope/deeper`)).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'not found' },
    });
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const r = await call(`${simple.url}/echo`, { method: 'PUT', body: '{}' });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ error: 'method not allowed' });
    expect(r.headers.get('allow')).toBe('POST, DELETE');
    expect((await call(`${typed.url}/markets/x`, { method: 'DELETE' })).body).toEqual({
      type: 'bad request',
      error: 'method not allowed',
    });
  });

  it('rejects duplicate routes and bad paths at creation', () => {
    const handler = () => ({ body: null });
    expect(() =>
      createHttpServer({
        errorShape: 'simple',
        routes: [
          { method: 'GET', path: '/a/:x', handler },
          { method: 'GET', path: '/a/:y', handler },
        ],
      }),
    ).toThrow(/two routes/);
    expect(() => createHttpServer({ errorShape: 'simple', routes: [{ method: 'GET', path: 'a', handler }] })).toThrow(
      /must start/,
    );
    // uWS would answer GET /m/special with the 405 of POST /m/special, never reaching GET /m/:id.
    expect(() =>
      createHttpServer({
        errorShape: 'simple',
        routes: [
          { method: 'GET', path: '/m/:id', handler },
          { method: 'POST', path: '/m/special', handler },
        ],
      }),
    ).toThrow(/overlap but serve different methods/);
    expect(() =>
      createHttpServer({
        errorShape: 'simple',
        routes: [
          { method: 'GET', path: '/m/:id', handler },
          { method: 'GET', path: '/m/special', handler },
          { method: 'GET', path: '/n/:id/x', handler },
        ],
      }),
    ).not.toThrow();
  });
});

describe('request data', () => {
  it('parses the query with URLSearchParams semantics, repeated keys included', async () => {
    const r = await call(`${simple.url}/query?a=1&a=2&b=x%20y+z`);
    expect(r.body).toEqual({ a: ['1', '2'], b: 'x y z', missing: null, raw: 'a=1&a=2&b=x%20y+z' });
    expect((await call(`${simple.url}/query`)).body).toEqual({ a: [], b: null, missing: null, raw: '' });
  });

  it('gives headers by lowercase name, a contract name with _ matching the header sent with -', async () => {
    const r = await call(`${simple.url}/headers`, { headers: { 'SVC-API-KEY': 'k-1' } });
    expect(r.body).toEqual({ key: 'k-1' });
  });

  it('never sees a request whose header names contain _ (uWS 20.30 parser limit)', async () => {
    const port = Number(new URL(simple.url).port);
    const answer = await new Promise<string>((resolve) => {
      let received = '';
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /headers HTTP/1.1\r\nHost: x\r\nSVC_API_KEY: k\r\n\r\n'),
      );
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', () => {});
      setTimeout(() => {
        socket.destroy();
        resolve(received);
      }, 300);
    });
    expect(answer).toBe('');
    expect((await call(`${simple.url}/markets/still-up`)).status).toBe(200);
  });

  it('parses a JSON body', async () => {
    const r = await call(`${simple.url}/echo`, postJson('{"a":[1,2],"b":"c"}'));
    expect(r).toMatchObject({ status: 201, body: { got: { a: [1, 2], b: 'c' } } });
    expect((await call(`${simple.url}/echo`, postJson('{"id":"o-1"}', 'DELETE'))).body).toEqual({ deleted: 'o-1' });
  });

  it('keeps the raw body byte-exact for HMAC', async () => {
    const raw = '{ "price":"0.50" ,\n\t"note":"é✓ 💸", "size": 1e2 }';
    const r = await call(`${simple.url}/sign`, { method: 'POST', body: raw });
    expect(r.body).toEqual({
      hmac: createHmac('sha256', 'secret').update(Buffer.from(raw, 'utf8')).digest('hex'),
      text: raw,
    });
  });

  it('reads a chunked body of unknown length', async () => {
    const parts = ['{"a":', '"chunked"', '}'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const r = await call(`${simple.url}/echo`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(r.body).toEqual({ got: { a: 'chunked' } });
  });
});

describe('body errors', () => {
  it('answers malformed JSON with 400 in both shapes', async () => {
    expect(await call(`${simple.url}/echo`, postJson('{"a":'))).toMatchObject({
      status: 400,
      body: { error: 'invalid JSON body' },
    });
    expect(await call(`${typed.url}/echo`, postJson('nope'))).toMatchObject({
      status: 400,
      body: { type: 'bad request', error: 'invalid JSON body' },
    });
  });

  it('answers a JSON body holding a NUL (which no service can store) with 400, anywhere in it', async () => {
    for (const body of ['{"a":"x\\u0000"}', '{"a":[{"b":"\\u0000"}]}', '{"k\\u0000":1}']) {
      expect(await call(`${simple.url}/echo`, postJson(body))).toMatchObject({
        status: 400,
        body: { error: 'the JSON body must not contain NUL characters (\\u0000)' },
      });
    }
    // A backslash followed by u0000 is text, not a NUL; three backslashes are one and a NUL.
    expect(await call(`${simple.url}/echo`, postJson('{"a":"\\\\u0000"}'))).toMatchObject({
      status: 201,
      body: { got: { a: '\\u0000' } },
    });
    expect(await call(`${simple.url}/echo`, postJson('{"a":"\\\\\\u0000"}'))).toMatchObject({ status: 400 });
    // However deep it nests (a walk of the parsed value overflowed the stack: a 500).
    const deep = `${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`;
    expect(await call(`${simple.url}/echo`, postJson(deep))).toMatchObject({
      status: 400,
      body: { error: 'the JSON body must not contain NUL characters (\\u0000)' },
    });
  });

  it('answers a JSON body holding a lone UTF-16 surrogate (which jsonb refuses) with 400, and takes pairs', async () => {
    const refused = { status: 400, body: { error: expect.stringContaining('surrogate pair') } };
    for (const body of [
      '{"a":"\\ud800"}',
      '{"a":"x\\udfff"}',
      '{"\\uDBFF":1}',
      '{"a":"\\ud800\\u0041"}',
      '{"a":"\\udc00\\ud800"}',
      '{"a":"\\ud800\\ud800\\udc00"}',
      '{"a":"\\ud800 \\udc00"}',
    ]) {
      expect([body, await call(`${simple.url}/echo`, postJson(body))]).toMatchObject([body, refused]);
    }
    // Pairs, escaped in either case, and text that only looks like an escape, pass.
    expect(await call(`${simple.url}/echo`, postJson('{"a":"\\ud83d\\ude00","b":"\\uD83D\\uDE00"}'))).toMatchObject({
      status: 201,
      body: { got: { a: '😀', b: '😀' } },
    });
    expect(await call(`${simple.url}/echo`, postJson('{"a":"\\\\ud800"}'))).toMatchObject({
      status: 201,
      body: { got: { a: '\\ud800' } },
    });
    expect(await call(`${simple.url}/echo`, postJson('{"a":"\\ud800\\\\udc00"}'))).toMatchObject(refused);
    // However deep it nests (a walk of the parsed value overflowed the stack: a 500).
    const deep = `${'['.repeat(20_000)}"\\ud83d\\ude00","\\ud83d"${']'.repeat(20_000)}`;
    expect(await call(`${simple.url}/echo`, postJson(deep))).toMatchObject(refused);
  });

  it('answers an empty body where JSON is required with 400', async () => {
    expect(await call(`${simple.url}/echo`, { method: 'POST' })).toMatchObject({
      status: 400,
      body: { error: 'request body is required' },
    });
  });

  it('answers a body over the default 1 MiB cap with 413', async () => {
    const r = await call(`${simple.url}/echo`, postJson(`"${'x'.repeat(1024 * 1024)}"`));
    expect(r).toMatchObject({ status: 413, body: { error: 'request body exceeds 1048576 bytes' } });
  });

  it('applies a per-route cap, also to a chunked body that crosses it', async () => {
    expect((await call(`${simple.url}/small`, { method: 'POST', body: '0123456789abcdef' })).body).toEqual({ n: 16 });
    expect((await call(`${typed.url}/small`, { method: 'POST', body: '0123456789abcdefg' })).body).toEqual({
      type: 'bad request',
      error: 'request body exceeds 16 bytes',
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.enqueue(new Uint8Array(10));
        controller.close();
      },
    });
    const r = await call(`${simple.url}/small`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
    expect((await call(`${simple.url}/markets/still-up`)).status).toBe(200);
  });
});

describe('handler errors and results', () => {
  it('answers a thrown HttpError with its status, shape and headers', async () => {
    expect(await call(`${simple.url}/missing/42`)).toMatchObject({ status: 404, body: { error: 'id not found: 42' } });
    expect(await call(`${typed.url}/missing/42`)).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'id not found: 42' },
    });
    const throttled = await call(`${simple.url}/throttled`);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('7');
  });

  it('answers any other error with a generic 500, logs the route, and keeps serving', async () => {
    faults.length = 0;
    const r = await call(`${simple.url}/boom`);
    expect(r).toMatchObject({ status: 500, body: { error: 'internal server error' } });
    expect(r.text).not.toContain('secret');
    expect(await call(`${typed.url}/boom-async`)).toMatchObject({
      status: 500,
      body: { type: 'bad request', error: 'internal server error' },
    });
    expect(await call(`${simple.url}/bigint`)).toMatchObject({ status: 500 });
    expect(faults).toEqual(['GET /boom', 'GET /bigint']);
    expect((await call(`${simple.url}/markets/after-boom`)).body).toMatchObject({ id: 'after-boom' });
  });

  it('awaits an async handler', async () => {
    const results = await Promise.all([1, 2, 3].map(() => call(`${simple.url}/slow`)));
    for (const r of results) expect(r.body).toEqual({ slow: true, ip: '127.0.0.1' });
  });

  it('sends a string body verbatim with extra headers', async () => {
    const r = await call(`${simple.url}/raw`);
    expect(r.text).toBe('{"pre":"serialised"}');
    expect(r.headers.get('x-extra')).toBe('yes');
    expect(r.headers.get('content-type')).toBe('application/json');
    const t = await call(`${simple.url}/text`);
    expect([t.text, t.headers.get('content-type')]).toEqual(['plain', 'text/plain']);
  });
});

describe('listen and close', () => {
  it('binds an ephemeral port and releases it on close', async () => {
    const server = createHttpServer({
      errorShape: 'simple',
      routes: [{ method: 'GET', path: '/', handler: () => ({ body: 'ok' }) }],
    });
    const listening = server.listen(0);
    expect(listening.port).toBeGreaterThan(0);
    expect((await call(`http://127.0.0.1:${listening.port}/`)).text).toBe('ok');
    expect(() => server.listen(0)).toThrow(/already listening/);
    await listening.close();
    await expect(fetch(`http://127.0.0.1:${listening.port}/`)).rejects.toThrow();
  });

  it('frees the port for a new server once closed', async () => {
    const first = createHttpServer({ errorShape: 'simple', routes: [] }).listen(0);
    await first.close();
    const second = createHttpServer({ errorShape: 'simple', routes: [] }).listen(first.port);
    expect(second.port).toBe(first.port);
    await second.close();
  });

  it('refuses a port that is taken', () => {
    expect(() =>
      createHttpServer({ errorShape: 'simple', routes: [] }).listen(Number(new URL(simple.url).port)),
    ).toThrow(/cannot listen/);
  });

  it('refuses a port another uWS server holds (uWS would share it, SO_REUSEPORT), naming it as Node does', async () => {
    const first = createHttpServer({ errorShape: 'simple', routes: [] }).listen(0);
    try {
      let refused: unknown;
      try {
        createHttpServer({ errorShape: 'simple', routes: [] }).listen(first.port).close();
      } catch (error) {
        refused = error;
      }
      expect(refused).toMatchObject({ code: 'EADDRINUSE', address: '127.0.0.1', port: first.port });
    } finally {
      await first.close();
    }
  });

  it('lets an in-flight request finish before closing', async () => {
    let started!: () => void;
    const inHandler = new Promise<void>((resolve) => (started = resolve));
    const server = createHttpServer({
      errorShape: 'simple',
      routes: [
        {
          method: 'GET',
          path: '/',
          handler: async () => {
            started();
            await new Promise((r) => setTimeout(r, 100));
            return { body: 'done' };
          },
        },
      ],
    });
    const listening = server.listen(0);
    const pending = call(`http://127.0.0.1:${listening.port}/`);
    await inHandler;
    await listening.close();
    expect((await pending).text).toBe('done');
  });
});

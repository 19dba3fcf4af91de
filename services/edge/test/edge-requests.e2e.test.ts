// The edge (HAProxy with the rendered config) in front of a service: the header names it renames,
// the client address it vouches for, and what it answers itself rather than pass on: the framing,
// heads, bodies and timeouts uWS would meet with silence or take wrongly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdge, type EdgeHarness } from '../src/testing/index.ts';
import { startBackend, type Backend } from './backend.ts';
import { raw } from './raw-client.ts';

let backend: Backend;
let typed: Backend;
let edge: EdgeHarness;
let port: number;

beforeAll(async () => {
  backend = await startBackend('simple');
  typed = await startBackend('typed');
  edge = await startEdge({
    PMX_CLOB_SOCKET: backend.socketPath,
    PMX_CATALOG_SOCKET: typed.socketPath,
    PMX_EDGE_REQUEST_TIMEOUT_MS: '1000',
    PMX_MAX_BODY_BYTES: '4096',
    PMX_RATE_LIMITS: 'false',
  });
  port = Number(new URL(edge.clobUrl).port);
});
afterAll(async () => {
  await edge?.close();
  await backend?.close();
  await typed?.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  `GET ${path} HTTP/1.1\r\nHost: edge.test\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
const json = (body: string) => JSON.parse(body) as Record<string, any>;

describe('header names and the client address', () => {
  it("renames SVC_X to SVC-X after dropping the client's own SVC-X, and drops other '_' names", async () => {
    const { answers } = await raw(
      port,
      [
        get('/echo', {
          'SVC-API-KEY': 'smuggled',
          SVC_API_KEY: 'key-1',
          svc_nonce: '7',
          X_Other: 'gone',
          'SVC-PASSPHRASE': 'alone',
        }),
      ],
      { answers: 1 },
    );
    const headers = json(answers[0]!.body).headers;
    expect(headers['svc-api-key']).toBe('key-1');
    expect(headers['svc-nonce']).toBe('7');
    // A dash name without its contract spelling is the client's own: it never reaches the service.
    expect(headers['svc-passphrase']).toBeUndefined();
    expect(Object.keys(headers).filter((name) => name.includes('_') || name === 'x-other')).toEqual([]);
  });

  it('tells the service the client address, whatever X-Forwarded-For the client wrote', async () => {
    const { answers } = await raw(port, [get('/echo', { 'X-Forwarded-For': '6.6.6.6', 'X-Real-IP': '6.6.6.6' })], {
      answers: 1,
      localAddress: '127.0.0.2',
    });
    const echoed = json(answers[0]!.body);
    expect(echoed.ip).toBe('127.0.0.2');
    expect(echoed.headers['x-forwarded-for']).toBe('127.0.0.2');
    expect(echoed.headers['x-real-ip']).toBeUndefined();
  });
});

describe('requests uWS would not answer', () => {
  it('serves HTTP/1.0, and a request with bare LF line ends at once', async () => {
    const old = await raw(port, ['GET /echo HTTP/1.0\r\n\r\n'], { answers: 1 });
    expect(old.answers[0]!.status).toBe(200);
    const bare = await raw(port, ['GET /echo HTTP/1.1\nHost: edge.test\n\n'], { answers: 1 });
    expect(bare.answers[0]!.status).toBe(200);
    expect(bare.ms).toBeLessThan(1000);
  });

  it('answers a missing Host, too many fields, an unknown method and an absolute target in the shape', async () => {
    const noHost = await raw(port, ['GET /echo HTTP/1.1\r\n\r\n'], { answers: 1 });
    expect([noHost.answers[0]!.status, json(noHost.answers[0]!.body)]).toEqual([
      400,
      { error: 'a request needs exactly one Host header' },
    ]);
    const fields = Object.fromEntries(Array.from({ length: 46 }, (_, i) => [`x-f${i}`, 'v']));
    const many = await raw(port, [get('/echo', fields)], { answers: 1 });
    expect(many.answers[0]!.status).toBe(431);
    const unknown = await raw(port, ['BREW /echo HTTP/1.1\r\nHost: edge.test\r\n\r\n'], { answers: 1 });
    expect([unknown.answers[0]!.status, json(unknown.answers[0]!.body)]).toEqual([
      501,
      { error: 'method not implemented' },
    ]);
    const typed = await raw(
      Number(new URL(edge.catalogUrl).port),
      ['BREW /markets HTTP/1.1\r\nHost: edge.test\r\n\r\n'],
      {
        answers: 1,
      },
    );
    expect(json(typed.answers[0]!.body)).toEqual({ type: 'bad request', error: 'method not implemented' });
    const absolute = await raw(port, ['GET http://edge.test/echo?x=1 HTTP/1.1\r\nHost: edge.test\r\n\r\n'], {
      answers: 1,
    });
    expect(json(absolute.answers[0]!.body).path).toBe('/echo');
  });

  it('answers an oversized head with 431 and an oversized body with 413 before reading it, in the shape', async () => {
    const head = await raw(port, [get('/echo', { 'X-Big': 'a'.repeat(20_000) })], { answers: 1 });
    expect(head.answers[0]!.status).toBe(431);
    expect(json(head.answers[0]!.body).error).toMatch(/request head too large/);
    const body = await raw(port, ['POST /echo HTTP/1.1\r\nHost: edge.test\r\nContent-Length: 5000\r\n\r\n'], {
      answers: 1,
    });
    expect([body.answers[0]!.status, json(body.answers[0]!.body)]).toEqual([
      413,
      { error: 'request body exceeds 4096 bytes' },
    ]);
    const catalog = await fetch(`${edge.catalogUrl}/echo`, { method: 'POST', body: 'x'.repeat(70_000) });
    expect([catalog.status, await catalog.json()]).toEqual([
      413,
      { type: 'bad request', error: 'request body exceeds 4096 bytes' },
    ]);
  });
});

describe('framing', () => {
  it('answers two pipelined requests on one connection, in order', async () => {
    const post = (id: string) => `POST /echo HTTP/1.1\r\nHost: edge.test\r\nContent-Length: ${id.length}\r\n\r\n${id}`;
    const { answers } = await raw(port, [post('first') + post('second')], { answers: 2 });
    expect(answers.map((a) => json(a.body).body)).toEqual(['first', 'second']);
  });

  it('never lets a body smuggle a request: two lengths are refused, length with chunked is read as chunked', async () => {
    const before = backend.seen.length;
    const smuggled = 'GET /book HTTP/1.1\r\nHost: edge.test\r\n\r\n';
    const twoLengths = await raw(port, [
      `POST /echo HTTP/1.1\r\nHost: edge.test\r\nContent-Length: 5\r\nContent-Length: ${5 + smuggled.length}\r\n\r\nhello${smuggled}`,
    ]);
    expect(twoLengths.answers.map((a) => a.status)).toEqual([400]);
    const lengthAndChunked = await raw(port, [
      `POST /echo HTTP/1.1\r\nHost: edge.test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    ]);
    expect(lengthAndChunked.answers.map((a) => a.status)).toEqual([200]);
    expect(json(lengthAndChunked.answers[0]!.body).body).toBe('');
    expect(lengthAndChunked.closed).toBe(true);
    expect(backend.seen.slice(before)).toEqual(['POST /echo']);
  });
});

describe('slow clients', () => {
  it('answers 408 to a head dribbled slower than the request timeout (slowloris) and closes', async () => {
    const parts = ['GET /echo HTTP/1.1\r\n', 'Host: edge.test\r\n', 'X-A: 1\r\n', 'X-B: 2\r\n', 'X-C: 3\r\n'];
    const slow = await raw(port, parts, { gapMs: 400, waitMs: 4000 });
    // HAProxy 2.6 answers a head that never completes from its parser, with its own HTML body.
    expect(slow.text).toMatch(/^HTTP\/1.1 408 /);
    expect(slow.closed).toBe(true);
    expect(slow.ms).toBeLessThan(2500);
  });

  it('answers 408 in the shape to a body that stops, and passes nothing on', async () => {
    const before = backend.seen.length;
    const stalled = await raw(port, ['POST /echo HTTP/1.1\r\nHost: edge.test\r\nContent-Length: 10\r\n\r\nabc'], {
      waitMs: 4000,
    });
    expect([stalled.answers[0]!.status, json(stalled.answers[0]!.body).error]).toEqual([
      408,
      'request timeout: the request did not arrive whole in time',
    ]);
    expect(backend.seen.length).toBe(before);
  });
});

describe('the edge itself', () => {
  it('answers 503 in the shape while a service is down, and serves Prometheus metrics on the operator port', async () => {
    const down = await fetch(`${edge.dataUrl}/positions`);
    expect([down.status, await down.json()]).toEqual([503, { error: 'the service is not reachable; retry shortly' }]);
    const metrics = await (await fetch(`${edge.statsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^haproxy_frontend_http_requests_total\{proxy="clob"\} \d+/m);
  });
});

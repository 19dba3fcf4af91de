// The front's deadlines: a request must arrive within the idle time (a head, a chunked body the
// front holds, a body with a length that stops coming), else 408, however it dribbles or stalls;
// a request uWS answered already gets no 408 after it; a request without a Host, or with two,
// gets 400 (uWS closes on the first without a word).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeaderProxy, type HeaderProxy } from './header-proxy.ts';
import { bodyOfAnswer, frontForTest, rawSession, type FrontedTestServer } from './test-server.ts';
import type { Route } from './route.ts';

const IDLE_MS = 200;
const routes: Route[] = [
  {
    method: 'GET',
    path: '/whoami',
    options: { immediate: true },
    handler: (ctx) => ({ body: { key: ctx.header('SVC_API_KEY') ?? null } }),
  },
  {
    method: 'POST',
    path: '/echo',
    handler: (ctx) => {
      echoes++;
      return { body: { text: ctx.rawBody.toString() } };
    },
  },
];

let fronted: FrontedTestServer;
let front: HeaderProxy;
/** POST /echo requests the server has handled. */
let echoes = 0;

beforeAll(async () => {
  fronted = await frontForTest({ routes, errorShape: 'simple' }, { sharedGets: ['/whoami'], idleTimeoutMs: IDLE_MS });
  front = fronted.front;
});
afterAll(async () => {
  await fronted?.close();
});

const session = (heads: string[], giveUpMs?: number) => fronted.session(heads, giveUpMs);
const who = (key: string) => `GET /whoami?k=${key} HTTP/1.1\r\nHost: x\r\nSVC_API_KEY: ${key}\r\n\r\n`;
const bodyOf = bodyOfAnswer;

describe("the front's deadlines", () => {
  /** Writes `parts` one every `everyMs` on one connection; everything it got back, once closed or after `giveUpMs`. */
  const dribble = (parts: string[], everyMs: number, giveUpMs: number) =>
    new Promise<{ answer: string; closedAtMs: number | undefined }>((resolve) => {
      const started = performance.now();
      const socket = net.connect(front.port, '127.0.0.1');
      let answer = '';
      let closedAtMs: number | undefined;
      const timer = setInterval(
        () => (parts.length > 0 && !socket.destroyed ? socket.write(parts.shift()!) : undefined),
        everyMs,
      );
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => (closedAtMs ??= performance.now() - started));
      setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        resolve({ answer, closedAtMs });
      }, giveUpMs);
    });

  it('answers 408 to a request that does not arrive whole in the idle time, however it dribbles (slowloris)', async () => {
    // A byte every 50 ms kept the idle timer from ever firing: the connection and its buffer stayed.
    const head = 'GET /whoami HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(40);
    const slowHead = await dribble([...head], 50, IDLE_MS * 4);
    expect(slowHead.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(bodyOf(slowHead.answer)).toEqual({ error: 'the request did not arrive in time' });
    expect(slowHead.closedAtMs).toBeLessThan(IDLE_MS * 3);
    // A chunked body the front holds (uWS has no connection yet, so its own timeout cannot help).
    const chunks = [
      'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
      ...Array.from({ length: 30 }, () => '1\r\nx\r\n'),
    ];
    const slowBody = await dribble(chunks, 50, IDLE_MS * 4);
    expect(slowBody.answer).toMatch(/^HTTP\/1\.1 408 /);
    // A request that arrives in time is served, and the next one has its own time.
    const [first, second] = await session([who('a'), who('b')]);
    expect([bodyOf(first!).key, bodyOf(second!).key]).toEqual(['a', 'b']);
  });

  it('answers 408 to a request sent whole at once that never completes (its idle timer and deadline run out together)', async () => {
    // The idle timer, started at the connection, fires first: it must answer 408, not end the connection without a word.
    for (const request of [
      'GET /whoami HTTP/1.1\r\nHost: x\r\n',
      'GET /whoami HTTP/1.1\nHost: x\n\n',
      'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n',
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}',
    ]) {
      const stalled = await dribble([request], 0, IDLE_MS * 4);
      expect([request, stalled.answer.slice(0, 30)]).toEqual([request, 'HTTP/1.1 408 Request Timeout\r\n']);
      expect(bodyOf(stalled.answer)).toEqual({ error: 'the request did not arrive in time' });
    }
    // A body with a length that keeps coming is served, however long it takes in all, as uWS
    // serves it (its idle time runs from its last bytes, not from its head).
    const steady = await dribble(
      ['POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n', ...'abcdefgh'],
      IDLE_MS / 4,
      IDLE_MS * 4,
    );
    expect(bodyOf(steady.answer)).toMatchObject({ text: 'abcdefgh' });
  });

  it('adds no 408 to a request uWS answered before its body was in (one request, one answer)', async () => {
    // An upstream that answers from the head (as uWS does with a 413 for a route's smaller cap),
    // then closes after more than half the idle time while the body still trickles.
    const early = net.createServer((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 2\r\n\r\n{}');
        setTimeout(() => socket.destroy(), (IDLE_MS * 3) / 4);
      }),
    );
    await new Promise<void>((resolve) => early.listen(0, '127.0.0.1', resolve));
    const proxy = await startHeaderProxy({
      port: 0,
      target: { host: '127.0.0.1', port: (early.address() as net.AddressInfo).port },
      idleTimeoutMs: IDLE_MS,
    });
    try {
      const socket = net.connect(proxy.port, '127.0.0.1');
      let got = '';
      socket.on('data', (chunk) => (got += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}');
      await new Promise((resolve) => socket.once('close', resolve));
      expect(got).toBe('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 2\r\n\r\n{}');
    } finally {
      await proxy.close();
      early.close();
    }
  });

  it('answers 400 to a request without a Host or with two (uWS closes on the first without a word)', async () => {
    const echoesBefore = echoes;
    const [none] = await session(['POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}']);
    expect([none?.slice(0, 24), bodyOf(none!)]).toEqual(['HTTP/1.1 400 Bad Request', { error: 'missing Host header' }]);
    const [two] = await session(['GET /whoami HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']);
    expect(bodyOf(two!)).toEqual({ error: 'more than one Host header' });
    expect(echoes).toBe(echoesBefore);
  });

  it('answers 408 when uWS times out a body with a length that stopped coming, rather than close without a word', async () => {
    // An upstream that, like uWS, closes on a body that stops coming (here after 3/4 of the idle time).
    const quiet = net.createServer((socket) =>
      socket.once('data', () => setTimeout(() => socket.destroy(), (IDLE_MS * 3) / 4)),
    );
    await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', resolve));
    const proxy = await startHeaderProxy({
      port: 0,
      target: { host: '127.0.0.1', port: (quiet.address() as net.AddressInfo).port },
      idleTimeoutMs: IDLE_MS,
    });
    try {
      const [answer] = await rawSession(
        proxy.port,
        ['POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}'],
        IDLE_MS * 4,
      );
      expect(answer?.slice(0, 30)).toBe('HTTP/1.1 408 Request Timeout\r\n');
    } finally {
      await proxy.close();
      quiet.close();
    }
  });
});

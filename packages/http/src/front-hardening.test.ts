// The header front against clients that misbehave: requests without a Host cannot break the
// shared lanes for others, HTTP/1.0 gets an answer instead of silence, header values pass byte for
// byte, and clients that never close or never read are let go of after the idle time. And a HEAD
// is answered with a head alone, so a client reading no body after it stays in step.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeaderProxy } from './header-proxy.ts';
import { ChunkedBody, rewriteHead } from './request-framing.ts';
import { bodyOfAnswer, frontForTest, type FrontedTestServer } from './test-server.ts';
import type { Route } from './route.ts';

const IDLE_MS = 200;
/** The largest buffer the kernel may give a TCP socket's `key` side (tcp_rmem / tcp_wmem). */
const tcpBufferMax = (key: 'rmem' | 'wmem') =>
  Number(readFileSync(`/proc/sys/net/ipv4/tcp_${key}`, 'utf8').trim().split(/\s+/)[2] ?? 0);
// An answer no socket buffers can hold whole: the client's receive buffer and the front's send
// buffer together, and 16 MiB more. (With a fixed 16 MiB, a machine whose tcp_rmem allows 32 MiB
// takes the whole answer into the kernel, leaving the front nothing unwritten to notice.)
const BIG = 'x'.repeat(tcpBufferMax('rmem') + tcpBufferMax('wmem') + 16 * 1024 * 1024);
const routes: Route[] = [
  {
    method: 'GET',
    path: '/whoami',
    options: { immediate: true },
    handler: (ctx) => ({ body: { key: ctx.header('SVC_API_KEY') ?? null } }),
  },
  {
    method: 'GET',
    path: '/big',
    options: { immediate: true },
    handler: () => {
      // Serialising and handing uWS tens of MiB holds this process's event loop for up to a
      // second here: a timer set now fires once the answer has begun to flow.
      setTimeout(() => bigAnswered.forEach((answered) => answered()), 0);
      return { body: { big: BIG } };
    },
  },
  {
    method: 'POST',
    path: '/echo',
    handler: (ctx) => {
      echoes++;
      return { body: { text: ctx.rawBody.toString(), expect: ctx.header('expect') ?? null } };
    },
  },
];

let fronted: FrontedTestServer;
let front: HeaderProxy;
/** POST /echo requests the server has handled. */
let echoes = 0;
/** Called once the server has answered GET /big. */
const bigAnswered = new Set<() => void>();

beforeAll(async () => {
  fronted = await frontForTest(
    { routes, errorShape: 'simple' },
    { sharedGets: ['/whoami', '/big'], idleTimeoutMs: IDLE_MS },
  );
  front = fronted.front;
});
afterAll(async () => {
  await fronted?.close();
});

const session = (heads: string[], giveUpMs?: number) => fronted.session(heads, giveUpMs);

const who = (key: string) => `GET /whoami?k=${key} HTTP/1.1\r\nHost: x\r\nSVC_API_KEY: ${key}\r\n\r\n`;
const bodyOf = bodyOfAnswer;

describe('the front with misbehaving clients', () => {
  it('keeps GETs without one good Host off the shared lanes, so they cannot fail other clients', async () => {
    // uWS closes a connection on a request without a Host, dropping the answers it had ready on it.
    const bad = [
      'GET /whoami HTTP/1.1\r\n\r\n',
      'GET /whoami HTTP/1.1\r\nHost:\r\n\r\n',
      'GET /whoami HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
    ];
    let running = true;
    const attack = async (request: string) => {
      while (running) await session([request], 1000);
    };
    const attackers = Array.from({ length: 12 }, (_, i) => attack(bad[i % bad.length]!));
    const victims = await Promise.all(
      Array.from({ length: 10 }, (_, c) =>
        session(
          Array.from({ length: 40 }, (_, n) => who(`v${c}-${n}`)),
          8000,
        ),
      ),
    );
    running = false;
    await Promise.all(attackers);
    for (const [c, answers] of victims.entries()) {
      expect(answers.map((a) => a.slice(0, 12))).toEqual(Array(40).fill('HTTP/1.1 200'));
      expect(answers.map((a) => bodyOf(a).key)).toEqual(Array.from({ length: 40 }, (_, n) => `v${c}-${n}`));
    }
  });

  it('passes up nothing a client sends after the front has refused its request and ended the connection', async () => {
    const before = echoes;
    // The second request is written once the 400 is read, as bytes already on their way would come.
    const [refused, ...rest] = await session(
      [
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi',
      ],
      1000,
    );
    expect(refused).toMatch(/^HTTP\/1\.1 400 /);
    expect(rest).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Nothing after the 400 goes up: a request handled there would never be answered.
    expect(echoes).toBe(before);
  });

  it('answers HTTP/1.0 with 505 and a request line without a version with 400, rather than nothing', async () => {
    const [old] = await session(['GET /whoami HTTP/1.0\r\nHost: x\r\n\r\n']);
    expect(old).toMatch(/^HTTP\/1\.1 505 HTTP Version Not Supported\r\n/);
    expect(bodyOf(old!)).toEqual({ error: 'only HTTP/1.1 is served' });
    const [garbled] = await session(['HELLO THERE\r\nHost: x\r\n\r\n']);
    expect(garbled).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('answers 400 to control characters in a header value or the target, and 431 past 32 trailer fields (uWS never answers)', async () => {
    for (const request of [
      'GET /whoami HTTP/1.1\r\nHost: x\r\nX-A: a\x0bb\r\n\r\n',
      'GET /whoami HTTP/1.1\r\nHost: x\r\nX-A: a\x00\r\n\r\n',
    ]) {
      const [answer] = await session([request]);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer!)).toEqual({ error: 'X-A: control characters in a header value' });
    }
    for (const target of ['/whoami?a=\x01', '/whoami?k=1 2', '/who\x7fami']) {
      const [answer] = await session([`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`]);
      expect(bodyOf(answer!)).toEqual({
        error: 'malformed request target: spaces and control characters must be percent-encoded',
      });
    }
    const tab = await session(['GET /whoami HTTP/1.1\r\nHost: x\r\nSVC_API_KEY: a\tb\r\n\r\n']);
    expect(bodyOf(tab[0]!)).toEqual({ key: 'a\tb' });
    const trailers = Array.from({ length: 33 }, (_, i) => `X-T${i}: v\r\n`).join('');
    const [many] = await session([
      `POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n${trailers}\r\n`,
    ]);
    expect(many).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('serves a target in absolute form as its path (uWS never answers one), and answers 400 to other forms', async () => {
    const [absolute, withQuery, bare] = await session([
      'GET http://x/whoami HTTP/1.1\r\nHost: x\r\nSVC_API_KEY: a\r\n\r\n',
      'POST HTTP://x:80/echo?q=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi',
      'GET http://x HTTP/1.1\r\nHost: x\r\n\r\n',
    ]);
    expect(bodyOf(absolute!)).toEqual({ key: 'a' });
    expect(bodyOf(withQuery!)).toEqual({ text: 'hi', expect: null });
    expect(bare).toMatch(/^HTTP\/1\.1 404 /); // "/", which no route serves
    for (const target of ['*', 'x:443', 'ftp://x/whoami', 'whoami']) {
      const [answer] = await session([`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`]);
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(bodyOf(answer!)).toEqual({ error: 'malformed request target: send a path such as /markets' });
    }
  });

  it('answers what uWS would close on without a word: a method it does not know (501), a header name it does not take (400)', async () => {
    const [unknown] = await session(['FOO /whoami HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(unknown).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    expect(bodyOf(unknown!)).toEqual({ error: 'method not implemented' });
    const names = [
      'X Name',
      'X\tName',
      'X(Name)',
      'X"Name',
      'X@Name',
      'X\x7fName',
      'X\xe9Name',
      'X.Name',
      'X!Name',
      'X|Name',
    ];
    const answers = await Promise.all(
      names.map((name) => session([`GET /whoami HTTP/1.1\r\nHost: x\r\n${name}: v\r\n\r\n`], 1000)),
    );
    expect(answers.map(([answer]) => bodyOf(answer ?? 'none\r\n\r\n{}'))).toEqual(
      names.map(() => ({ error: "unsupported header name: letters, digits, '-' and '_' only" })),
    );
    const [fine] = await session(['GET /whoami HTTP/1.1\r\nHost: x\r\nX-Name-9z: v\r\nSVC_API_KEY: k\r\n\r\n']);
    expect(bodyOf(fine!)).toEqual({ key: 'k' });
  });

  it('answers 431 to more header fields than uWS answers (it stays silent past 48), and serves one under', async () => {
    const extra = (n: number) => Array.from({ length: n }, (_, i) => `X-H${i}: v\r\n`).join('');
    const [over] = await session([`GET /whoami HTTP/1.1\r\nHost: x\r\n${extra(47)}\r\n`], 3000);
    expect(over).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(over!)).toEqual({ error: 'too many header fields: at most 47 (X-Forwarded-For is added)' });
    const [under] = await session(
      [`GET /whoami HTTP/1.1\r\nHost: x\r\n${extra(46)}SVC_API_KEY: k\r\n\r\n`.replace('X-H45: v\r\n', '')],
      3000,
    );
    expect(bodyOf(under!)).toEqual({ key: 'k' });
  });

  it('passes header values byte for byte, trimming only spaces and tabs', () => {
    // 'à' is C3 A0 in UTF-8: String.trim on the latin1 head takes that last byte for a space.
    const value = Buffer.from('voilà\u00a0à').toString('latin1');
    const { head } = rewriteHead(`GET /name HTTP/1.1\r\nHost: x\r\nX-Name: \t ${value} \t\r\nX-Tab: a\tb`, '10.0.0.1');
    expect(head.split('\r\n')).toEqual([
      'GET /name HTTP/1.1',
      'Host: x',
      `X-Name: ${value}`,
      'X-Tab: a\tb',
      'x-forwarded-for: 10.0.0.1',
      '',
      '',
    ]);
    // Other control characters uWS never answers, a vertical tab among them.
    expect(() => rewriteHead('GET /name HTTP/1.1\r\nHost: x\r\nX-Vt: a\x0b', '10.0.0.1')).toThrow(
      'X-Vt: control characters in a header value',
    );
  });

  it('lets go of a client that never closes its side once the front has ended it', async () => {
    const socket = net.connect({ port: front.port, host: '127.0.0.1', allowHalfOpen: true });
    const events: string[] = [];
    socket.on('data', () => events.push('data'));
    socket.on('end', () => events.push('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => events.push(`error ${error.code}`));
    socket.on('close', () => events.push('close'));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(who('half-open'));
    // Idle time: the front ends its side; the same again: it frees the socket it kept half-open.
    await new Promise((resolve) => setTimeout(resolve, 4 * IDLE_MS));
    expect(events).toContain('end');
    // A socket the front still held would take these quietly; a freed one answers with a reset,
    // which the second write meets.
    socket.write(who('after-end'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(who('after-reset'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.filter((e) => e.startsWith('error'))).not.toEqual([]);
    socket.destroy();
  });

  it('answers every request a client sent whole before half-closing, then ends; a request cut short by the close gets none', async () => {
    /** Writes the bytes, half-closes at once (as `nc -N` does), and reads until the front ends. */
    const halfClose = (payload: string) =>
      new Promise<{ text: string; ended: boolean }>((resolve) => {
        const socket = net.connect({ port: front.port, host: '127.0.0.1', allowHalfOpen: true }, () =>
          socket.end(payload),
        );
        let text = '';
        let ended = false;
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => (ended = true));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ text, ended }));
        setTimeout(() => socket.destroy(), 3000);
      });
    const post = (text: string) => `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: ${text.length}\r\n\r\n${text}`;
    // A POST on the client's own connection, a GET on a shared lane, another POST: all answered.
    const whole = await halfClose(post('first') + who('second') + post('third'));
    expect(whole.ended).toBe(true);
    expect(whole.text.match(/HTTP\/1\.1 200/g)).toHaveLength(3);
    expect(whole.text.indexOf('"text":"first"')).toBeLessThan(whole.text.indexOf('"key":"second"'));
    expect(whole.text.indexOf('"key":"second"')).toBeLessThan(whole.text.indexOf('"text":"third"'));
    // A lone GET on a lane, the commonest case.
    expect(bodyOf((await halfClose(who('lone'))).text)).toEqual({ key: 'lone' });
    // A body, a chunked body and a head the close cut short: nothing to answer, the front just ends.
    const started = performance.now();
    for (const cut of [
      post('first') + 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc',
      'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n',
      'GET /whoami HTTP/1.1\r\nHost: x\r\n',
    ]) {
      const answered = await halfClose(cut);
      expect(answered.ended).toBe(true);
      expect((answered.text.match(/HTTP\/1\.1 /g) ?? []).length).toBe(cut.startsWith(post('first')) ? 1 : 0);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });

  /**
   * A client that asks for GET /big and does not read it; with `before`, it first sends that
   * request, reads its answer and sits idle past the idle time. Bytes it got, and whether the
   * front closed it before it read on.
   */
  const notReading = (before?: string) =>
    new Promise<{ bytes: number; closed: boolean }>((resolve) => {
      const socket = net.connect(front.port, '127.0.0.1');
      let bytes = 0;
      let closed = false;
      socket.on('error', () => {});
      socket.on('close', () => (closed = true));
      const askForBig = () => {
        socket.removeAllListeners('data');
        socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
        socket.pause();
        socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
      };
      // Read on only long after the answer began to flow (a fixed delay from the request races
      // the server's serialising of it on a slow machine, and the client may read all of it).
      const answered = () => {
        bigAnswered.delete(answered);
        setTimeout(() => socket.resume(), 6 * IDLE_MS);
        setTimeout(
          () => {
            socket.destroy();
            resolve({ bytes, closed });
          },
          6 * IDLE_MS + 1500,
        );
      };
      bigAnswered.add(answered);
      if (before === undefined) return void socket.once('connect', askForBig);
      socket.once('connect', () => socket.write(before));
      socket.once('data', () => setTimeout(askForBig, 3 * IDLE_MS));
    });

  it('cuts off a client that does not read its answer for the idle time, also after an idle spell', async () => {
    for (const received of [
      await notReading(),
      await notReading(`POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi`),
    ]) {
      expect(received.closed).toBe(true);
      expect(received.bytes).toBeLessThan(BIG.length);
    }
  });
});

describe('Expect: 100-continue', () => {
  it('gives a client that waits for 100 Continue before a chunked body its Continue, then the answer', async () => {
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(front.port, '127.0.0.1', () =>
        socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n'),
      );
      let got = '';
      socket.on('data', (chunk: Buffer) => {
        got += chunk.toString('latin1');
        // As a careful client does: the body only once the server said to go on.
        if (got === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write('5\r\nhello\r\n0\r\n\r\n');
        if (got.endsWith('}')) {
          socket.destroy();
          resolve(got);
        }
      });
      setTimeout(() => {
        socket.destroy();
        resolve(got);
      }, 1500);
    });
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n')).toBe(true);
    // uWS got the whole body and no Expect, so it sent no second Continue.
    expect(bodyOf(text.slice(text.indexOf('HTTP/1.1 200')))).toEqual({ text: 'hello', expect: null });
  });
});

describe('HEAD', () => {
  /** Sends `payload` raw and collects whatever comes back in `ms`. */
  function collect(port: number, payload: string, ms = 400): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', () => {});
      setTimeout(() => {
        socket.destroy();
        resolve(text);
      }, ms);
    });
  }
  const pipelined =
    'HEAD /whoami HTTP/1.1\r\nHost: x\r\n\r\nGET /whoami HTTP/1.1\r\nHost: x\r\nSVC-API-KEY: after-head\r\n\r\n';

  it('answers a HEAD with a head alone, straight at uWS and through the front, so the next answer parses', async () => {
    for (const port of [fronted.server.listening.port, front.port]) {
      const text = await collect(port, pipelined);
      const [first, rest] = [text.slice(0, text.indexOf('\r\n\r\n') + 4), text.slice(text.indexOf('\r\n\r\n') + 4)];
      expect(first).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(first.toLowerCase()).toContain('content-length: 0\r\n');
      // Straight after the head: the next answer, not the 405's body.
      expect(rest).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(bodyOf(rest)).toEqual({ key: 'after-head' });
    }
  });
});

describe('chunked bodies in the front', () => {
  it('decodes a body of one-byte chunks across reads, keeping its own copy of the bytes', () => {
    const text = 'a body sent one byte per chunk, over several reads';
    const wire = Buffer.from([...text].map((c) => `1\r\n${c}\r\n`).join('') + '0\r\n\r\n');
    const decoder = new ChunkedBody(1024);
    let done = false;
    for (let at = 0; at < wire.length; at += 7) {
      const read = Buffer.from(wire.subarray(at, at + 7));
      done = decoder.consume(read, 0).done;
      read.fill(0); // the socket's buffer is reused: the decoder must not keep views of it
    }
    expect(done).toBe(true);
    expect(decoder.body().toString()).toBe(text);
  });

  it('keeps nothing past `keep`, but reads on to the end and knows the size', () => {
    const decoder = new ChunkedBody(1024, 4);
    expect(decoder.consume(Buffer.from('3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n'), 0).done).toBe(true);
    expect(decoder.size).toBe(6);
    expect(() => decoder.body()).toThrow('over the 4 kept');
  });
});

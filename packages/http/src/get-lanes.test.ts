// The front's shared GET connections, against a real socket server whose answers and failures
// each test chooses: every answer reaches the request that asked, however the bytes are cut, and
// a lane that breaks sends what it had not answered again on another.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GetLanes, type LaneRequest } from './get-lanes.ts';

/** Per request head: the bytes to send back (undefined: say nothing), and whether to close after. */
type Behaviour = (
  path: string,
  connection: number,
  index: number,
) => { answer?: string; close?: boolean; cut?: boolean };

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;

let servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

/** A server reading pipelined GET heads; `cut` writes the answer a byte at a time. */
async function upstream(behaviour: Behaviour): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = connections++;
    let index = 0;
    let pending = '';
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const path = pending.slice(4, pending.indexOf(' ', 4));
        pending = pending.slice(end + 4);
        const { answer, close, cut } = behaviour(path, connection, index++);
        if (answer !== undefined) {
          if (cut) for (const byte of Buffer.from(answer, 'latin1')) socket.write(Buffer.of(byte));
          else socket.write(answer, 'latin1');
        }
        if (close) {
          socket.destroySoon();
          return;
        }
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}

type Outcome = { answer: string } | { failed: 'partial' | 'none' };

function get(lanes: GetLanes, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const request: LaneRequest = {
      head: Buffer.from(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`, 'latin1'),
      write: (bytes) => parts.push(Buffer.from(bytes)),
      done: () => resolve({ answer: Buffer.concat(parts).toString('latin1') }),
      fail: (partial) => resolve({ failed: partial ? 'partial' : 'none' }),
    };
    lanes.send(request);
  });
}

describe('shared GET lanes', () => {
  it('hands each of many concurrent GETs its own answer, over at most maxLanes connections', async () => {
    const server = await upstream((path, _c, index) => ({
      answer: ok(path, index % 3 === 0 ? 'Connection: keep-alive\r\n' : ''),
      cut: index % 5 === 0,
    }));
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 2);
    const paths = Array.from({ length: 200 }, (_, i) => `/book?n=${i}`);
    const outcomes = await Promise.all(paths.map((path) => get(lanes, path)));
    // Exactly one whole answer each, with the body its own path.
    for (const [i, outcome] of outcomes.entries()) {
      const answer = 'answer' in outcome ? outcome.answer : '';
      expect([ok(paths[i]!), ok(paths[i]!, 'Connection: keep-alive\r\n')]).toContain(answer);
    }
    expect(server.connections()).toBeLessThanOrEqual(2);
    lanes.close();
  });

  it('sends GETs again on another lane when theirs closes before answering them', async () => {
    // The first connection answers one GET, then closes with the rest unanswered.
    const server = await upstream((path, connection, index) =>
      connection === 0 && index === 1 ? { close: true } : { answer: ok(path) },
    );
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 1);
    const outcomes = await Promise.all(['/a', '/b', '/c', '/d'].map((path) => get(lanes, path)));
    expect(outcomes).toEqual(['/a', '/b', '/c', '/d'].map((path) => ({ answer: ok(path) })));
    expect(server.connections()).toBe(2);
    lanes.close();
  });

  it('fails a GET whose answer broke off part-way, and retries the ones behind it', async () => {
    const server = await upstream((path, connection, index) =>
      connection === 0 && index === 1 ? { answer: ok(path).slice(0, -2), close: true } : { answer: ok(path) },
    );
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 1);
    const outcomes = await Promise.all(['/a', '/b', '/c'].map((path) => get(lanes, path)));
    expect(outcomes).toEqual([{ answer: ok('/a') }, { failed: 'partial' }, { answer: ok('/c') }]);
    lanes.close();
  });

  it('gives up on a GET after three lanes failed it, and on answers it cannot frame', async () => {
    const silent = await upstream(() => ({ close: true }));
    const lanes = new GetLanes({ host: '127.0.0.1', port: silent.port }, 2);
    expect(await get(lanes, '/a')).toEqual({ failed: 'none' });
    expect(silent.connections()).toBe(3);
    lanes.close();
    const unframed = await upstream(() => ({
      answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    }));
    const lanes2 = new GetLanes({ host: '127.0.0.1', port: unframed.port }, 2);
    expect(await get(lanes2, '/a')).toEqual({ failed: 'none' });
    lanes2.close();
  });

  it('sends nothing more on a lane whose answer said Connection: close', async () => {
    const server = await upstream((path, connection, index) =>
      connection === 0 && index === 0 ? { answer: ok(path, 'Connection: close\r\n') } : { answer: ok(path) },
    );
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 1);
    expect(await get(lanes, '/a')).toEqual({ answer: ok('/a', 'Connection: close\r\n') });
    expect(await get(lanes, '/b')).toEqual({ answer: ok('/b') });
    expect(server.connections()).toBe(2);
    lanes.close();
  });

  it('drops a lane that has gone silent with GETs out, and sends them again', async () => {
    const server = await upstream((path, connection) => (connection === 0 ? {} : { answer: ok(path) }));
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 1, 100);
    const started = Date.now();
    expect(await Promise.all([get(lanes, '/a'), get(lanes, '/b')])).toEqual([
      { answer: ok('/a') },
      { answer: ok('/b') },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(server.connections()).toBe(2);
    lanes.close();
  });

  it('fails what is in flight when the front closes', async () => {
    const server = await upstream(() => ({}));
    const lanes = new GetLanes({ host: '127.0.0.1', port: server.port }, 1);
    const pending = get(lanes, '/never');
    await new Promise((resolve) => setTimeout(resolve, 50));
    lanes.close();
    expect(await pending).toEqual({ failed: 'none' });
    expect(await get(lanes, '/after')).toEqual({ failed: 'none' });
  });
});

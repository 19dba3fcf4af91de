import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from './route.ts';
import { call, serveForTest, type TestServer } from './test-server.ts';

let slowHandlerFinished = 0;
const routes: Route[] = [
  { method: 'POST', path: '/order', handler: (ctx) => ({ body: { bytes: ctx.rawBody.length } }) },
  {
    method: 'GET',
    path: '/slow',
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      slowHandlerFinished++;
      return { body: { late: true } };
    },
  },
];

let server: TestServer;
beforeAll(() => {
  server = serveForTest({ routes, errorShape: 'simple' });
});
afterAll(() => server.close());

/** Writes raw bytes, waits a little, and destroys the socket without reading the answer. */
function sendAndVanish(raw: string, waitMs: number): Promise<void> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(raw);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, waitMs);
    });
    socket.on('error', () => {});
  });
}

describe('a client that goes away', () => {
  it('mid-body does not crash the server', async () => {
    await sendAndVanish('POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"partial":', 20);
    await sendAndVanish('POST /order HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n', 20);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await call(`${server.url}/order`, { method: 'POST', body: '{"whole":true}' })).toMatchObject({
      status: 200,
      body: { bytes: 14 },
    });
    expect(server.listening.inFlight).toBe(0);
  });

  it('while an async handler runs: nothing is written to the dead response and serving goes on', async () => {
    await sendAndVanish('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', 10);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(slowHandlerFinished).toBe(1);
    expect((await call(`${server.url}/slow`)).body).toEqual({ late: true });
    expect(server.listening.inFlight).toBe(0);
  });
});

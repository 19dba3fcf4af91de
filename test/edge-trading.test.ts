// Orders through the edge as a hostile or careless client sends them: two orders pipelined on one
// connection, a second spelling of an auth header slipped in beside the contract's, and the per
// API key windows with real level-2 auth (a write that fails auth spends none of the key's budget).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '@pmx/clob/testing';
import { limit, Trader } from '@pmx/testkit';
import { startClobBehindEdge, type ClobBehindEdge } from './clob-behind-edge.ts';

let served: ClobBehindEdge;
let h: Harness;
let market: { conditionId: string; yes: string; no: string };
let alice: Trader;

beforeAll(async () => {
  served = await startClobBehindEdge({ PMX_EDGE_CLOB_ORDER_BURST: '6', PMX_EDGE_CLOB_ORDER_SUSTAINED: '1000' });
  h = served.h;
  market = await h.createMarket();
  alice = new Trader(served.url, undefined, '_');
  await alice.createApiKey();
  await h.deposit(alice.address, 1000n * 1_000_000n);
});
afterAll(async () => {
  await served?.close();
});

/** A signed POST /order as raw HTTP/1.1 with the contract's SVC_X names (and any extra header lines). */
async function orderRequest(trader: Trader, price: string, extra = ''): Promise<string> {
  const body = JSON.stringify(await trader.signOrder({ tokenId: market.yes, ...limit('BUY', price, 10) }));
  const headers = trader.l2Headers('POST', '/order', body);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST /order HTTP/1.1\r\nHost: edge.test\r\nContent-Type: application/json\r\n${lines.join('')}${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Sends `payload` on one connection; resolves with the first `count` answers' JSON bodies and status (`code`). */
function exchange(payload: string, count: number, localAddress?: string): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: Number(new URL(served.url).port), host: '127.0.0.1', localAddress }, () =>
      socket.write(payload),
    );
    let text = '';
    const bodies = (): any[] => {
      const out: any[] = [];
      let rest = text;
      for (;;) {
        const end = rest.indexOf('\r\n\r\n');
        const length = Number(/content-length: *(\d+)/i.exec(rest.slice(0, end))?.[1] ?? NaN);
        if (end < 0 || rest.length < end + 4 + length) return out;
        out.push({ code: Number(rest.slice(9, 12)), ...JSON.parse(rest.slice(end + 4, end + 4 + length)) });
        rest = rest.slice(end + 4 + length);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (bodies().length >= count) {
        socket.destroy();
        resolve(bodies());
      }
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no ${count} answers: ${text}`)), 10_000).unref();
  });
}

describe('orders through the edge', () => {
  it('answers two orders pipelined on one connection, both placed, in order', async () => {
    const [first, second] = await exchange(
      (await orderRequest(alice, '0.41')) + (await orderRequest(alice, '0.42')),
      2,
    );
    expect([first.code, first.success]).toEqual([200, true]);
    expect(second).toMatchObject({ code: 200, success: true });
    expect(first.orderID).not.toBe(second.orderID);
    const book = (await (await fetch(`${served.url}/book?token_id=${market.yes}`)).json()) as {
      bids: { price: string }[];
    };
    expect(book.bids.map((level: { price: string }) => level.price)).toEqual(expect.arrayContaining(['0.41', '0.42']));
    h.expectConsistent();
  });

  it("takes the contract's SVC_X over an SVC-X the client slipped in, and never an SVC-X alone", async () => {
    const [smuggled] = await exchange(
      await orderRequest(alice, '0.43', 'SVC-API-KEY: 00000000-0000-0000-0000-000000000000\r\n'),
      1,
    );
    expect(smuggled).toMatchObject({ code: 200, success: true });
    const dashOnly = (await orderRequest(alice, '0.44')).replace(/\r\nSVC_API_KEY:/, '\r\nSVC-API-KEY:');
    const [refused] = await exchange(dashOnly, 1);
    expect(refused).toEqual({ code: 401, error: 'missing header SVC_API_KEY' });
    h.expectConsistent();
  });

  it("counts a key's writes across clients, but not the ones that failed auth", async () => {
    const bob = new Trader(served.url, undefined, '_');
    await bob.createApiKey();
    await h.deposit(bob.address, 1000n * 1_000_000n);
    const forged = (await orderRequest(bob, '0.30')).replace(
      /SVC_SIGNATURE: [^\r]+/,
      `SVC_SIGNATURE: ${'0'.repeat(64)}`,
    );
    // From a client of its own (its own windows: 6 writes per 10 s), failing auth five times.
    for (let i = 0; i < 5; i++) expect((await exchange(forged, 1, '127.0.0.5'))[0].code).toBe(401);
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await exchange(await orderRequest(bob, '0.30'), 1, `127.0.0.${6 + (i % 2)}`))[0].code);
    // The key's burst window is 6 (set above), across its two clients; the forged writes spent none of it.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    h.expectConsistent();
  });
});

// The contract's rate limits at the edge, with small caps: just under and just over a cap, the
// Retry-After of each window, both trading windows per client and per API key, and what does not
// count (refused requests; writes the service refused as unauthenticated).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdge, type EdgeHarness } from '../src/testing/index.ts';
import { startBackend, type Backend } from './backend.ts';
import { raw } from './raw-client.ts';

let clob: Backend;
let catalog: Backend;

beforeAll(async () => {
  clob = await startBackend('simple');
  catalog = await startBackend('typed');
});
afterAll(async () => {
  await clob?.close();
  await catalog?.close();
});

/** An edge of its own per test: the counters start empty. */
async function edgeWith(caps: Record<string, string>): Promise<EdgeHarness> {
  return startEdge({ PMX_CLOB_SOCKET: clob.socketPath, PMX_CATALOG_SOCKET: catalog.socketPath, ...caps });
}

/** Statuses of `n` requests from one client address, one after another. */
async function statuses(url: string, n: number, init: RequestInit = {}): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await fetch(url, init)).status);
  return out;
}

/** A trading write from a given loopback address (another client) with an API key. */
async function order(port: number, from: string, key: string, signature = 'ok') {
  const head = `POST /order HTTP/1.1\r\nHost: edge.test\r\nSVC_API_KEY: ${key}\r\nSVC_SIGNATURE: ${signature}\r\nContent-Length: 2\r\n\r\n{}`;
  const { answers } = await raw(port, [head], { answers: 1, localAddress: from });
  return answers[0]!;
}

describe('per client, in one 10 s window', () => {
  it('serves a cap of requests, refuses the next with 429, Retry-After 10 and the shape, and counts it nowhere', async () => {
    const edge = await edgeWith({ PMX_EDGE_CATALOG_MARKETS: '5', PMX_EDGE_CATALOG_GENERAL: '8' });
    try {
      expect(await statuses(`${edge.catalogUrl}/markets/12`, 5)).toEqual([200, 200, 200, 200, 200]);
      const refused = await fetch(`${edge.catalogUrl}/markets`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(await refused.json()).toEqual({
        type: 'bad request',
        error: 'too many requests: GET /markets: 5 per 10 s',
      });
      // Refused requests used none of the general budget: 3 more of it remain, for other paths.
      expect(await statuses(`${edge.catalogUrl}/markets`, 3)).toEqual([429, 429, 429]);
      expect(await statuses(`${edge.catalogUrl}/events`, 4)).toEqual([200, 200, 200, 429]);
      const general = await fetch(`${edge.catalogUrl}/echo`);
      expect([general.status, ((await general.json()) as { error: string }).error]).toEqual([
        429,
        'too many requests: 8 requests per 10 s',
      ]);
    } finally {
      await edge.close();
    }
  });

  it('counts the two catalog listings together, and each client apart', async () => {
    const edge = await edgeWith({ PMX_EDGE_CATALOG_LISTINGS: '3' });
    try {
      const port = Number(new URL(edge.catalogUrl).port);
      expect(await statuses(`${edge.catalogUrl}/events`, 2)).toEqual([200, 200]);
      expect(await statuses(`${edge.catalogUrl}/markets`, 2)).toEqual([200, 429]);
      const other = await raw(port, ['GET /markets HTTP/1.1\r\nHost: edge.test\r\n\r\n'], {
        answers: 1,
        localAddress: '127.0.0.3',
      });
      expect(other.answers[0]!.status).toBe(200);
    } finally {
      await edge.close();
    }
  });
});

describe('trading writes', () => {
  it('refuses past the burst window per client with Retry-After 10, and past the sustained one with 600', async () => {
    const burst = await edgeWith({ PMX_EDGE_CLOB_ORDER_BURST: '3', PMX_EDGE_CLOB_ORDER_SUSTAINED: '100' });
    try {
      const port = Number(new URL(burst.clobUrl).port);
      const answers = [];
      for (const key of ['k1', 'k2', 'k3', 'k4']) answers.push(await order(port, '127.0.0.1', key));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.head).toMatch(/\r\nretry-after: 10\r\n/i);
      expect(JSON.parse(answers[3]!.body)).toEqual({ error: 'too many requests: POST /order: 3 per 10 s' });
    } finally {
      await burst.close();
    }
    const sustained = await edgeWith({ PMX_EDGE_CLOB_ORDER_BURST: '100', PMX_EDGE_CLOB_ORDER_SUSTAINED: '3' });
    try {
      const port = Number(new URL(sustained.clobUrl).port);
      const answers = [];
      for (const key of ['k1', 'k2', 'k3', 'k4']) answers.push(await order(port, '127.0.0.1', key));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.head).toMatch(/\r\nretry-after: 600\r\n/i);
      expect(JSON.parse(answers[3]!.body)).toEqual({ error: 'too many requests: POST /order: 3 per 10 min' });
    } finally {
      await sustained.close();
    }
  });

  it('counts an API key across clients in both windows, but not the writes the service refused as unauthenticated', async () => {
    const edge = await edgeWith({ PMX_EDGE_CLOB_ORDER_BURST: '3', PMX_EDGE_CLOB_ORDER_SUSTAINED: '4' });
    try {
      const port = Number(new URL(edge.clobUrl).port);
      // Someone else names the key with bad signatures: 401s, which spend none of the key's budget.
      for (let i = 0; i < 3; i++) expect((await order(port, '127.0.0.9', 'victim', 'wrong')).status).toBe(401);
      const owner = [];
      for (const from of ['127.0.0.1', '127.0.0.2', '127.0.0.3'])
        owner.push((await order(port, from, 'victim')).status);
      expect(owner).toEqual([200, 200, 200]);
      // A fourth client, fresh in its own windows, is refused for the key's burst window.
      const fourth = await order(port, '127.0.0.4', 'victim');
      expect([fourth.status, JSON.parse(fourth.body).error]).toEqual([
        429,
        'too many requests: POST /order: 3 per 10 s per API key',
      ]);
      expect((await order(port, '127.0.0.4', 'another-key')).status).toBe(200);
    } finally {
      await edge.close();
    }
  });

  it('counts cancels apart from placements', async () => {
    const edge = await edgeWith({ PMX_EDGE_CLOB_CANCEL_BURST: '2' });
    try {
      const cancel = { method: 'DELETE', headers: { SVC_API_KEY: 'k' } };
      expect(await statuses(`${edge.clobUrl}/order`, 3, cancel)).toEqual([200, 200, 429]);
      expect(await statuses(`${edge.clobUrl}/order`, 1, { method: 'POST', body: '{}' })).toEqual([200]);
    } finally {
      await edge.close();
    }
  });
});

// The bots' HTTP client against a small server: a 429 is waited out by its Retry-After and the
// request sent again with fresh headers; past its deadline the 429 is given back. A 425 is sent
// again, the same body, after 100–250 ms, and counted.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttp } from './exchange-http.ts';

let server: Server;
let url: string;
const seen: { at: number; signed: string | undefined; body: string }[] = [];
/** 425s the server answers before a 200, when set. */
let recovering = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => answer(req.headers['x-attempt'] as string | undefined, body, res));
  });
  const answer = (signed: string | undefined, body: string, res: ServerResponse) => {
    seen.push({ at: Date.now(), signed, body });
    if (recovering > 0) {
      recovering--;
      res.writeHead(425, { 'content-type': 'application/json' });
      res.end('{"error":"the market is recovering after a restart; retry shortly"}');
      return;
    }
    if (seen.length === 1) {
      res.writeHead(429, { 'retry-after': '0.3', 'content-type': 'application/json' });
      res.end('{"error":"too many requests"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('ExchangeHttp', () => {
  it('waits out a 429 by its Retry-After, then sends again with headers signed afresh', async () => {
    const http = new ExchangeHttp(url, '127.0.0.7');
    let attempt = 0;
    const answer = await http.send('GET', '/x', { sign: () => ({ 'x-attempt': String(++attempt) }) });
    http.close();
    expect(answer).toMatchObject({ status: 200, body: { ok: true }, throttled: 1 });
    expect(seen.map((s) => s.signed)).toEqual(['1', '2']);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(280);
  });

  it('gives the 429 back when waiting would pass the deadline', async () => {
    seen.length = 0;
    const http = new ExchangeHttp(url);
    const answer = await http.send('GET', '/x', { deadline: Date.now() + 50 });
    http.close();
    expect(answer.status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it('sends the same body again after a 425, 100–250 ms later, and counts each 425', async () => {
    seen.length = 0;
    seen.push({ at: 0, signed: undefined, body: '' }); // not the first request: no 429
    recovering = 2;
    const http = new ExchangeHttp(url);
    const body = JSON.stringify({ order: { salt: 7 } });
    const answer = await http.send('POST', '/order', { body });
    http.close();
    expect(answer).toMatchObject({ status: 200, recovering: 2, throttled: 0 });
    const sent = seen.slice(1);
    expect(sent.map((s) => s.body)).toEqual([body, body, body]);
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(95);
      expect(sent[i]!.at - sent[i - 1]!.at).toBeLessThan(450);
    }
  });

  it('gives a 425 back once its deadline has passed', async () => {
    seen.length = 1;
    recovering = 5;
    const http = new ExchangeHttp(url);
    const answer = await http.send('GET', '/x', { deadline: Date.now() + 150 });
    http.close();
    recovering = 0;
    expect(answer).toMatchObject({ status: 425 });
    expect(answer.recovering).toBeGreaterThanOrEqual(1);
    expect(answer.recovering).toBeLessThanOrEqual(2);
  });
});

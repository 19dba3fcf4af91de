// The bots' HTTP client against a small server: a 429 is waited out by its Retry-After and the
// request sent again with fresh headers; past its deadline the 429 is given back.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttp } from './exchange-http.ts';

let server: Server;
let url: string;
const seen: { at: number; signed: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ at: Date.now(), signed: req.headers['x-attempt'] as string | undefined });
    if (seen.length === 1) {
      res.writeHead(429, { 'retry-after': '0.3', 'content-type': 'application/json' });
      res.end('{"error":"too many requests"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
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
});

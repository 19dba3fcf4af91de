// Requests answered before a handler runs — a CORS preflight, a path parameter that cannot be
// read — may carry a body. It is read and dropped before the answer, as for a 404, so the answer
// arrives and the connection stays open (answered with the body unread, the connection would close
// with bytes unread, and the reset can destroy the answer before a proxy reads it).
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.ts';
import type { Route } from './route.ts';
import { rawSession } from './test-server.ts';

const routes: Route[] = [
  { method: 'GET', path: '/book', handler: () => ({ body: { bids: [] } }) },
  { method: 'POST', path: '/order', handler: () => ({ body: { ok: true } }) },
  { method: 'GET', path: '/item/:id', handler: (ctx) => ({ body: { id: ctx.params.id } }) },
];
const TRIES = 25;
const withBody = (head: string) =>
  `${head}\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
const status = (answer: string | undefined) => answer?.slice(9, 12);

describe('a request answered before its handler, with a body', () => {
  it('gets its answer every time and keeps its connection', async () => {
    const served = createHttpServer({ routes, errorShape: 'simple', corsOrigin: '*' }).listen(0);
    try {
      for (const port of [served.port]) {
        const seen: string[] = [];
        for (let i = 0; i < TRIES; i++) {
          for (const [head, expected] of [
            ['OPTIONS /order HTTP/1.1', '204'],
            ['GET /item/%00 HTTP/1.1', '400'],
            ['GET /item/%zz HTTP/1.1', '400'],
          ] as const) {
            const answers = await rawSession(port, [withBody(head), 'GET /book HTTP/1.1\r\nHost: x\r\n\r\n']);
            seen.push(`${head}: ${answers.map(status).join(' ')}`);
            if (answers.map(status).join(' ') !== `${expected} 200`) break;
          }
        }
        expect(new Set(seen)).toEqual(
          new Set([
            'OPTIONS /order HTTP/1.1: 204 200',
            'GET /item/%00 HTTP/1.1: 400 200',
            'GET /item/%zz HTTP/1.1: 400 200',
          ]),
        );
      }
    } finally {
      await served.close({ graceMs: 100 });
    }
  });
});

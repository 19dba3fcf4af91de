// CORS: with `corsOrigin` every answer (errors too) names the origin browsers may call from, and
// a preflight on a served path gets its methods and the headers asked for; without it nothing
// changes (OPTIONS is a 405).
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.ts';
import { HttpError } from './http-error.ts';
import type { Route } from './route.ts';

const routes: Route[] = [
  { method: 'GET', path: '/book', handler: () => ({ body: { bids: [] } }) },
  { method: 'POST', path: '/order', handler: () => ({ body: { ok: true } }) },
  { method: 'DELETE', path: '/order', handler: () => ({ body: { ok: true } }) },
  {
    method: 'GET',
    path: '/refused',
    handler: () => {
      throw new HttpError(401, 'no');
    },
  },
  {
    method: 'GET',
    path: '/throttled',
    handler: () => {
      throw new HttpError(429, 'slow down', { headers: { 'retry-after': '7' } });
    },
  },
];

async function withServer(corsOrigin: string | undefined, test: (urls: string[]) => Promise<void>): Promise<void> {
  const served = createHttpServer({ routes, errorShape: 'simple', corsOrigin }).listen(0);
  try {
    await test([`http://127.0.0.1:${served.port}`]);
  } finally {
    await served.close({ graceMs: 100 });
  }
}

describe('CORS', () => {
  it('names the origin on every answer and answers a preflight on a served path', async () => {
    await withServer('*', async (urls) => {
      for (const url of urls) {
        for (const [path, status] of [
          ['/book', 200],
          ['/refused', 401],
          ['/nope', 404],
        ] as const) {
          const answer = await fetch(`${url}${path}`, { headers: { origin: 'https://ui.example' } });
          expect([path, answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([path, status, '*']);
        }
        const preflight = await fetch(`${url}/order`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://ui.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,svc_api_key',
          },
        });
        expect(preflight.status).toBe(204);
        expect(
          Object.fromEntries(
            ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'].map((h) => [
              h,
              preflight.headers.get(h),
            ]),
          ),
        ).toEqual({
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'POST, DELETE',
          'access-control-allow-headers': 'content-type,svc_api_key',
        });
        // A browser's script can read how long to back off.
        const throttled = await fetch(`${url}/throttled`, { headers: { origin: 'https://ui.example' } });
        expect([
          throttled.status,
          throttled.headers.get('access-control-expose-headers'),
          throttled.headers.get('retry-after'),
        ]).toEqual([429, 'retry-after', '7']);
        // The connection stays in step after the preflight's empty answer.
        expect((await fetch(`${url}/book`)).status).toBe(200);
      }
    });
  });

  it('leaves answers alone without it', async () => {
    await withServer(undefined, async (urls) => {
      for (const url of urls) {
        const answer = await fetch(`${url}/book`);
        expect(answer.headers.get('access-control-allow-origin')).toBeNull();
        expect((await fetch(`${url}/order`, { method: 'OPTIONS' })).status).toBe(405);
      }
    });
  });
});

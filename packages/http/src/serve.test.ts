// serve(): the public port is the header front on its own thread, reaching uWS over a Unix
// socket; uWS's own TCP port stays for direct clients; closing removes the socket file.
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.ts';
import type { Route } from './route.ts';
import { serve } from './serve.ts';

const routes: Route[] = [{ method: 'GET', path: '/whoami', handler: (ctx) => ({ body: { key: ctx.header('SVC_API_KEY') ?? null, ip: ctx.ip } }) }];

async function sockets(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith(`pmx-${process.pid}-`));
}

describe('serve', () => {
  it('answers SVC_X headers on the public port through the Unix hop, with the client address, and cleans up', async () => {
    const served = await serve(createHttpServer({ routes, errorShape: 'simple', trustedProxyHops: 1 }), { host: '127.0.0.1', port: 0, headerCompat: true });
    try {
      expect(await sockets()).toHaveLength(1);
      const front = await fetch(`http://127.0.0.1:${served.port}/whoami`, { headers: { SVC_API_KEY: 'k-1', 'X-Forwarded-For': '6.6.6.6' } });
      expect(await front.json()).toEqual({ key: 'k-1', ip: '127.0.0.1' });
      const direct = await fetch(`http://127.0.0.1:${served.directPort}/whoami`, { headers: { 'SVC-API-KEY': 'k-2' } });
      expect(await direct.json()).toEqual({ key: 'k-2', ip: '127.0.0.1' });
    } finally {
      await served.close({ graceMs: 100 });
    }
    expect(await sockets()).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${served.port}/whoami`)).rejects.toThrow();
  });
});

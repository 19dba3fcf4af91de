// Which windows each catalog route is counted in, with small limits so each one trips quickly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type ListeningHttpServer, type Route } from '@pmx/http';
import { catalogRateLimits } from './rate-limits.ts';

let server: ListeningHttpServer;
const ok = () => ({ body: '[]' });
const routes: Route[] = [
  '/events',
  '/events/:id',
  '/markets',
  '/markets/:id',
  '/tags',
  '/tags/:id',
  '/public-search',
  '/series',
].map((path) => ({ method: 'GET', path, handler: ok }));

beforeAll(() => {
  server = createHttpServer({
    routes,
    errorShape: 'typed',
    // A frozen clock: every request of the test falls in one window.
    hooks: {
      before: catalogRateLimits({ general: 40, events: 6, markets: 5, listings: 8, tags: 3, search: 4 }, () => 1_000),
    },
  }).listen(0);
});

afterAll(async () => {
  await server?.close({ graceMs: 100 });
});

async function statuses(path: string, times: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push((await fetch(`http://127.0.0.1:${server.port}${path}`)).status);
  return out;
}

describe('catalogRateLimits', () => {
  it('applies the per-group, combined-listing and general windows per client', async () => {
    expect(await statuses('/tags/1', 2)).toEqual([200, 200]);
    expect(await statuses('/tags', 2)).toEqual([200, 429]); // /tags… share 3
    expect(await statuses('/public-search', 5)).toEqual([200, 200, 200, 200, 429]);
    expect(await statuses('/markets/1', 3)).toEqual([200, 200, 200]);
    expect(await statuses('/markets', 3)).toEqual([200, 200, 429]); // /markets… share 5
    expect(await statuses('/events', 6)).toEqual([200, 200, 200, 200, 200, 200]);
    // Listings: 2 of /markets + 6 of /events = 8 = the combined cap, before /events' own 6 is the limit.
    expect(await statuses('/events/1', 1)).toEqual([429]); // /events… at 6
    const refused = await fetch(`http://127.0.0.1:${server.port}/markets`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ type: 'bad request', error: 'too many requests' });
    // Refused requests were counted nowhere: 2+1+4+3+2+6 = 18 allowed so far of the general 40.
    expect(await statuses('/series', 22)).toEqual([...Array(22).fill(200)]);
    expect(await statuses('/series', 1)).toEqual([429]);
  });
});

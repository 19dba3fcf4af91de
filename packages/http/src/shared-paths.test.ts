import { describe, expect, it } from 'vitest';
import { sharedPathTest } from './shared-paths.ts';

describe('which paths the front may share', () => {
  const shared = sharedPathTest(
    ['/book', '/markets/:id', '/events/:id', '/a/:x/b', '/tags/slug/:slug'],
    ['/data/orders', '/markets/stats', '/a/c/:y', '/tags/:id'],
  );

  it('shares the static paths and the paths of the parameter patterns of immediate routes', () => {
    expect(shared('/book')).toBe(true);
    expect(shared('/markets/0xabc')).toBe(true);
    expect(shared('/events/42')).toBe(true);
    expect(shared('/a/z/b')).toBe(true);
    expect(shared('/tags/slug/politics')).toBe(true);
  });

  it('shares nothing another GET route could take (uWS prefers static segments to parameters)', () => {
    expect(shared('/data/orders')).toBe(false);
    expect(shared('/markets/stats')).toBe(false);
    expect(shared('/a/c/b')).toBe(false);
  });

  it('shares no other shape, no empty parameter, no extra segment', () => {
    expect(shared('/book/')).toBe(false);
    expect(shared('/markets/')).toBe(false);
    expect(shared('/markets/1/2')).toBe(false);
    expect(shared('/events')).toBe(false);
    expect(shared('/nowhere')).toBe(false);
  });

  it('shares no parameter path at all beside a wildcard GET route', () => {
    const wild = sharedPathTest(['/book', '/markets/:id'], ['/files/*']);
    expect(wild('/book')).toBe(true);
    expect(wild('/markets/1')).toBe(false);
  });
});

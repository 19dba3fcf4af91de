import { describe, expect, it } from 'vitest';
import { sharedPathTest } from './shared-paths.ts';

describe('which paths the front may share', () => {
  const shared = sharedPathTest(
    ['/book', '/markets/:id', '/events/:id', '/a/:x/b', '/tags/slug/:slug'],
    ['/data/orders', '/markets/stats', '/a/c/:y', '/tags/:id'],
  );
  const sharedOf = (paths: string[]) => paths.filter(shared);

  it('shares the static paths and the paths of the parameter patterns of immediate routes', () => {
    const paths = ['/book', '/markets/0xabc', '/events/42', '/a/z/b', '/tags/slug/politics'];
    expect(sharedOf(paths)).toEqual(paths);
  });

  it('shares nothing another GET route could take (uWS prefers static segments to parameters)', () => {
    expect(sharedOf(['/data/orders', '/markets/stats', '/a/c/b'])).toEqual([]);
  });

  it('shares no other shape, no empty parameter, no extra segment', () => {
    expect(sharedOf(['/book/', '/markets/', '/markets/1/2', '/events', '/nowhere'])).toEqual([]);
  });

  it('shares no parameter path at all beside a wildcard GET route', () => {
    const wild = sharedPathTest(['/book', '/markets/:id'], ['/files/*']);
    expect(['/book', '/markets/1'].filter(wild)).toEqual(['/book']);
  });
});

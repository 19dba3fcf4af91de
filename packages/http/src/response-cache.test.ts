// Cached bodies hold while their stamp does, are rebuilt once it moves, and the least recently used go first.
import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.ts';

describe('ResponseCache', () => {
  it('serves a body while its stamp holds and rebuilds it when the stamp moves', () => {
    const cache = new ResponseCache(2);
    let builds = 0;
    const build = () => `body ${++builds}`;
    expect(cache.through('/a', () => 'v1', build)).toBe('body 1');
    expect(cache.through('/a', () => 'v1', build)).toBe('body 1');
    expect(cache.through('/a', () => 'v2', build)).toBe('body 2');
    expect(cache.through('/a', () => 'v2', build)).toBe('body 2');
  });

  it('drops the least recently used entry when full, and caches nothing with room for none', () => {
    const cache = new ResponseCache(2);
    let builds = 0;
    const build = () => `body ${++builds}`;
    cache.through('/a', () => 1, build); // 1
    cache.through('/b', () => 1, build); // 2
    cache.through('/a', () => 1, build); // hit: /a is now the most recent
    cache.through('/c', () => 1, build); // 3, drops /b
    expect(cache.through('/a', () => 1, build)).toBe('body 1');
    expect(cache.through('/b', () => 1, build)).toBe('body 4');
    const none = new ResponseCache(0);
    expect([none.through('/a', () => 1, build), none.through('/a', () => 1, build)]).toEqual(['body 5', 'body 6']);
  });
});

// A unique Redis key prefix per test, and removal of every key under it, so tests share one
// Redis server without seeing each other's keys.
import { randomBytes } from 'node:crypto';
import { ownerTag } from './owner-tag.ts';

/**
 * The two commands cleanup needs, typed as ioredis declares them. Pass a client without a
 * `keyPrefix` option: SCAN's MATCH pattern is not prefixed by ioredis, but DEL's keys are.
 */
export interface RedisKeyCleaner {
  scan(
    cursor: string,
    matchToken: 'MATCH',
    pattern: string,
    countToken: 'COUNT',
    count: number,
  ): Promise<[cursor: string, keys: string[]]>;
  del(...keys: string[]): Promise<number>;
}

export const TEST_REDIS_PREFIX = 'pmxtest:';

/** e.g. `pmxtest:o3fa9c01bp12345_3f9a1c0b7e2d:` (the owner tag lets a later run sweep it up). */
export function testRedisPrefix(): string {
  return `${TEST_REDIS_PREFIX}${ownerTag()}_${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key that starts with `prefix`; returns how many it deleted. */
export async function cleanupRedisPrefix(redis: RedisKeyCleaner, prefix: string): Promise<number> {
  if (prefix === '') throw new Error('cleanupRedisPrefix: refusing an empty prefix (it would match every key)');
  const pattern = `${escapeGlob(prefix)}*`;
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) deleted += await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  return deleted;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

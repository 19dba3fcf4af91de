// Runs against the real Redis of PMX_REDIS_URL (infra/setup.sh provides it).
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testkitConfig } from './config.ts';
import { cleanupRedisPrefix, testRedisPrefix } from './redis-prefix.ts';

const redis = new Redis(testkitConfig.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

describe('testRedisPrefix', () => {
  it('is unique and namespaced', () => {
    const prefix = testRedisPrefix();
    expect(prefix).toMatch(/^pmxtest:o[0-9a-f]{8}p[0-9]+_[0-9a-f]{12}:$/);
    expect(testRedisPrefix()).not.toBe(prefix);
  });
});

describe('cleanupRedisPrefix', () => {
  it('deletes every key under the prefix and nothing else', async () => {
    const mine = testRedisPrefix();
    const neighbour = testRedisPrefix();
    const pipeline = redis.pipeline();
    for (let i = 0; i < 2500; i++) pipeline.set(`${mine}k${i}`, '1');
    pipeline.set(`${neighbour}keep`, '1');
    await pipeline.exec();

    expect(await cleanupRedisPrefix(redis, mine)).toBe(2500);
    expect(await redis.exists(`${mine}k0`, `${mine}k2499`)).toBe(0);
    expect(await redis.get(`${neighbour}keep`)).toBe('1');
    await cleanupRedisPrefix(redis, neighbour);
  });

  it('treats glob characters in the prefix literally', async () => {
    const base = testRedisPrefix();
    await redis.set(`${base}a*:x`, '1');
    await redis.set(`${base}ab:x`, '1');
    expect(await cleanupRedisPrefix(redis, `${base}a*:`)).toBe(1);
    expect(await redis.get(`${base}ab:x`)).toBe('1');
    await cleanupRedisPrefix(redis, base);
  });

  it('refuses an empty prefix', async () => {
    await expect(cleanupRedisPrefix(redis, '')).rejects.toThrow(/empty prefix/);
  });
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectionSettings, defaults } from './connection-defaults.ts';

describe('connectionSettings', () => {
  it('uses the fresh-machine defaults when nothing is set', () => {
    expect(connectionSettings({})).toEqual({
      pgUrl: defaults.PMX_PG_URL,
      redisUrl: defaults.PMX_REDIS_URL,
      clickhouseUrl: '',
      clickhousePath: fileURLToPath(new URL('../../../data/clickhouse', import.meta.url)),
      redisPrefix: 'pmx',
    });
  });

  it('takes overrides from the given env object', () => {
    const settings = connectionSettings({ PMX_PG_URL: 'postgres://a@b/c', PMX_CLICKHOUSE_URL: 'http://ch:8123' });
    expect(settings.pgUrl).toBe('postgres://a@b/c');
    expect(settings.clickhouseUrl).toBe('http://ch:8123');
    // A password with '/' (openssl base64) stays usable.
    expect(connectionSettings({ PMX_PG_URL: 'postgresql://pmx:a/b+c=@db:5432/pmx' }).pgUrl).toBe(
      'postgresql://pmx:a/b+c=@db:5432/pmx',
    );
  });

  it('refuses a URL of another kind, naming the setting and hiding the password', () => {
    expect(() => connectionSettings({ PMX_PG_URL: 'notaurl' })).toThrow(
      'config: PMX_PG_URL must be a postgres:// or postgresql:// URL, got "notaurl"',
    );
    expect(() => connectionSettings({ PMX_PG_URL: 'http://u:secret@db:5432/pmx' })).toThrow(
      'config: PMX_PG_URL must be a postgres:// or postgresql:// URL, got "http://u:***@db:5432/pmx"',
    );
    // Every form ioredis takes stays usable, a Unix socket's included.
    for (const redisUrl of [
      'redis://r:6379',
      'rediss://r:6380',
      '/run/redis/redis.sock',
      'unix:///run/redis/redis.sock',
      '127.0.0.1:6379',
    ]) {
      expect(connectionSettings({ PMX_REDIS_URL: redisUrl }).redisUrl).toBe(redisUrl);
    }
    expect(() => connectionSettings({ PMX_CLICKHOUSE_URL: '127.0.0.1:8123' })).toThrow(
      /PMX_CLICKHOUSE_URL must be a http:\/\/ or https:\/\/ URL/,
    );
  });
});

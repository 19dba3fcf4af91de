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
  });
});

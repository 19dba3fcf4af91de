// The account-data settings: defaults that run on a fresh machine, and bad values refused at start.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { loadDataConfig } from './config.ts';

describe('loadDataConfig', () => {
  it('is reached on 127.0.0.1:8082 through the edge, listens on 18082, reads prices every 5 s from the clob on 18080, allows loopback', () => {
    const config = loadDataConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8082,
      directPort: 18082,
      clobUrl: 'http://127.0.0.1:18080',
      priceRefreshMs: 5000,
    });
    expect(config.allowlist.allows('127.0.0.1')).toBe(true);
    expect(config.allowlist.allows('10.0.0.1')).toBe(false);
    expect(loadDataConfig({ PMX_DATA_ALLOWLIST: '10.0.0.0/8' }).allowlist.allows('10.0.0.1')).toBe(true);
  });

  it('refuses ports, periods and allowlists it cannot use', () => {
    for (const env of [
      { PMX_DATA_DIRECT_PORT: '70000' },
      { PMX_DATA_PRICE_REFRESH_MS: '3000000000' },
      { PMX_DATA_PRICE_REFRESH_MS: '-1' },
      { PMX_DATA_ALLOWLIST: '10.0.0.0/8,everyone' },
    ])
      expect(() => loadDataConfig(env), JSON.stringify(env)).toThrow(ConfigError);
  });
});

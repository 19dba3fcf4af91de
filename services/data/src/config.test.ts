// The account-data settings: defaults that run on a fresh machine, and bad values refused at start.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { loadDataConfig } from './config.ts';

describe('loadDataConfig', () => {
  it('listens on 127.0.0.1:8082, reads prices every 5 s from the clob on 8080, allows loopback', () => {
    const config = loadDataConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8082,
      clobUrl: 'http://127.0.0.1:8080',
      priceRefreshMs: 5000,
      trustedProxyHops: 0,
    });
    expect(config.allowlist.allows('127.0.0.1')).toBe(true);
    expect(config.allowlist.allows('10.0.0.1')).toBe(false);
    expect(loadDataConfig({ PMX_DATA_ALLOWLIST: '10.0.0.0/8' }).allowlist.allows('10.0.0.1')).toBe(true);
  });

  it('refuses ports, periods and allowlists it cannot use', () => {
    for (const env of [
      { PMX_DATA_PORT: '70000' },
      { PMX_DATA_PRICE_REFRESH_MS: '3000000000' },
      { PMX_DATA_PRICE_REFRESH_MS: '-1' },
      { PMX_DATA_ALLOWLIST: '10.0.0.0/8,everyone' },
      { PMX_TRUSTED_PROXY_HOPS: '17' },
    ])
      expect(() => loadDataConfig(env), JSON.stringify(env)).toThrow(ConfigError);
  });
});

// The catalog's settings refuse, at start, periods Node's timers cannot take.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { loadCatalogConfig } from './config.ts';

describe('loadCatalogConfig', () => {
  it('takes refresh periods from off (0) to 2^31 − 1 ms, and refuses the rest', () => {
    expect(
      loadCatalogConfig({ PMX_CATALOG_PRICE_REFRESH_MS: '0', PMX_CATALOG_POSITIONS_REFRESH_MS: '2147483647' }),
    ).toMatchObject({ priceRefreshMs: 0, positionsRefreshMs: 2_147_483_647 });
    // 3e9 made Node's timer fire every millisecond: the clob polled ≈ 800 times a second.
    for (const env of [
      { PMX_CATALOG_PRICE_REFRESH_MS: '3000000000' },
      { PMX_CATALOG_POSITIONS_REFRESH_MS: '-5' },
      { PMX_CATALOG_RESPONSE_CACHE: '-1' },
    ]) {
      expect(() => loadCatalogConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});

// Everything the account-data service reads from the environment, with defaults that run on a
// fresh machine after infra/setup.sh. Nothing else in this service reads process.env.

import {
  connectionSettings,
  type Env,
  envCorsOrigin,
  envInt,
  envList,
  envLogLevel,
  envString,
  type LogLevel,
} from '@pmx/config';
import { Allowlist, DEFAULT_ALLOWLIST } from './allowlist.ts';

/** The longest period a Node timer takes (2^31 − 1 ms, ≈ 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export interface DataConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  host: string;
  port: number;
  pgUrl: string;
  /** The trading front end, whose market listing carries the live prices (curPrice). */
  clobUrl: string;
  /** How often prices are read from the clob in bulk; 0 = never (open markets are valued at 0.5). */
  priceRefreshMs: number;
  /** Client addresses allowed to read positions, closed positions and holders. */
  allowlist: Allowlist;
  /** Proxies in front that append X-Forwarded-For (0: the socket peer is the client). */
  trustedProxyHops: number;
  /** Origin browsers may call from (PMX_CORS_ORIGIN; undefined: no CORS). */
  corsOrigin: string | undefined;
  /** Whole answers kept until what they show changes (a wallet's positions, a market's holders); 0 = none. */
  responseCacheEntries: number;
}

export function loadDataConfig(env: Env): DataConfig {
  return {
    logLevel: envLogLevel(env),
    host: envString(env, 'PMX_DATA_HOST', '127.0.0.1'),
    port: envInt(env, 'PMX_DATA_PORT', 8082, { min: 0, max: 65_535 }),
    pgUrl: connectionSettings(env).pgUrl,
    clobUrl: envString(env, 'PMX_CLOB_URL', 'http://127.0.0.1:8080'),
    priceRefreshMs: envInt(env, 'PMX_DATA_PRICE_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    allowlist: Allowlist.parse(envList(env, 'PMX_DATA_ALLOWLIST', DEFAULT_ALLOWLIST)),
    trustedProxyHops: envInt(env, 'PMX_TRUSTED_PROXY_HOPS', 0, { min: 0, max: 16 }),
    corsOrigin: envCorsOrigin(env),
    responseCacheEntries: envInt(env, 'PMX_DATA_RESPONSE_CACHE', 256, { min: 0, max: 1_000_000 }),
  };
}

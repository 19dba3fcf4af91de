// Everything the catalog reads from the environment, with defaults that run on a fresh machine
// after infra/setup.sh. Nothing else in this service reads process.env.

import {
  connectionSettings,
  type Env,
  envBool,
  envCorsOrigin,
  envInt,
  envLogLevel,
  envOperatorKey,
  envString,
  type LogLevel,
} from '@pmx/config';

/** The longest period a Node timer takes (2^31 − 1 ms, ≈ 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export { DEV_OPERATOR_KEY } from '@pmx/config';

const PORT = { min: 0, max: 65_535 };

export interface CatalogConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  host: string;
  port: number;
  pgUrl: string;
  /** Bearer token of the operator API (create and update catalog entities). */
  operatorKey: string;
  /** The trading front end, whose market listing carries the live midpoints. */
  clobUrl: string;
  /** How often outcome prices are fetched from the clob in bulk; 0 = never (equal split shown). */
  priceRefreshMs: number;
  /** How often comment authors' positions are re-read (holders_only, comment profiles); 0 = never. */
  positionsRefreshMs: number;
  /** How far SVC_TIMESTAMP may be from the server clock, in seconds (POST /comments). */
  authWindowSeconds: number;
  maxBodyBytes: number;
  /** Proxies in front that append X-Forwarded-For (0: trust the socket peer). */
  trustedProxyHops: number;
  /** Origin browsers may call from (PMX_CORS_ORIGIN; undefined: no CORS). */
  corsOrigin: string | undefined;
  /** Header-normalising front on the public port (SVC_X headers for POST /comments); uWS behind it. */
  headerCompat: boolean;
  /** uWS's own port behind the front (0: ephemeral loopback). */
  directPort: number;
  /** Enforce the contract's catalog rate limits. */
  rateLimits: boolean;
  /** List and search responses kept whole until the catalog changes; 0 = none. */
  responseCacheEntries: number;
}

export function loadCatalogConfig(env: Env): CatalogConfig {
  const host = envString(env, 'PMX_CATALOG_HOST', '127.0.0.1');
  return {
    logLevel: envLogLevel(env),
    host,
    port: envInt(env, 'PMX_CATALOG_PORT', 8081, PORT),
    pgUrl: connectionSettings(env).pgUrl,
    operatorKey: envOperatorKey(env, host),
    clobUrl: envString(env, 'PMX_CLOB_URL', 'http://127.0.0.1:8080'),
    // Node's timers take at most 2^31 − 1 ms; past it they fire every millisecond.
    priceRefreshMs: envInt(env, 'PMX_CATALOG_PRICE_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    positionsRefreshMs: envInt(env, 'PMX_CATALOG_POSITIONS_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    authWindowSeconds: envInt(env, 'PMX_AUTH_WINDOW_SECONDS', 30, { min: 1, max: 3600 }),
    maxBodyBytes: envInt(env, 'PMX_MAX_BODY_BYTES', 64 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    trustedProxyHops: envInt(env, 'PMX_TRUSTED_PROXY_HOPS', 0, { min: 0, max: 16 }),
    corsOrigin: envCorsOrigin(env),
    headerCompat: envBool(env, 'PMX_HEADER_COMPAT', true),
    directPort: envInt(env, 'PMX_CATALOG_DIRECT_PORT', 0, PORT),
    rateLimits: envBool(env, 'PMX_RATE_LIMITS', true),
    responseCacheEntries: envInt(env, 'PMX_CATALOG_RESPONSE_CACHE', 256, { min: 0, max: 1_000_000 }),
  };
}

export interface DemoLoadConfig {
  pgUrl: string;
  /** 1 = 2,000 events, 8,000 markets, 200 series, 100 tags, 20,000 comments. */
  scale: number;
  seed: number;
}

export function loadDemoLoadConfig(env: Env): DemoLoadConfig {
  return {
    pgUrl: connectionSettings(env).pgUrl,
    scale: Number(envString(env, 'PMX_DEMO_SCALE', '1')),
    seed: envInt(env, 'PMX_DEMO_SEED', 42),
  };
}

// Everything the catalog reads from the environment, with defaults that run on a fresh machine
// after infra/setup.sh. Nothing else in this service reads process.env.

import {
  connectionSettings,
  type Env,
  envCorsOrigin,
  envInt,
  envLogLevel,
  envOperatorKey,
  envString,
  type LogLevel,
  serviceAddress,
  SERVICE_PORTS,
} from '@pmx/config';

const PORT = { min: 0, max: 65_535 };

/** The longest period a Node timer takes (2^31 − 1 ms, ≈ 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export { DEV_OPERATOR_KEY } from '@pmx/config';

export interface CatalogConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  /** Where clients reach the catalog: the edge's address (the operator key is required beyond loopback). */
  host: string;
  port: number;
  /** The catalog's own port on 127.0.0.1, for tests and internal callers (0: ephemeral). */
  /** The address the direct port binds (PMX_CATALOG_LISTEN_HOST): 127.0.0.1, or beyond it for an edge elsewhere. */
  listenHost: string;
  directPort: number;
  /** The Unix socket the edge reaches the catalog on, the one place X-Forwarded-For is trusted ('' = none). */
  socketPath: string;
  pgUrl: string;
  /** Bearer token of the operator API (create and update catalog entities). */
  operatorKey: string;
  /** The trading front end's direct address, whose market listing carries the live midpoints. */
  clobUrl: string;
  /** How often outcome prices are fetched from the clob in bulk; 0 = never (equal split shown). */
  priceRefreshMs: number;
  /** How often comment authors' positions are re-read (holders_only, comment profiles); 0 = never. */
  positionsRefreshMs: number;
  /** How far SVC_TIMESTAMP may be from the server clock, in seconds (POST /comments). */
  authWindowSeconds: number;
  maxBodyBytes: number;
  /** Origin browsers may call from (PMX_CORS_ORIGIN; undefined: no CORS). */
  corsOrigin: string | undefined;
  /** List and search responses kept whole until the catalog changes; 0 = none. */
  responseCacheEntries: number;
}

export function loadCatalogConfig(env: Env): CatalogConfig {
  const { host, port, directPort, socketPath, listenHost } = serviceAddress(env, 'catalog');
  return {
    logLevel: envLogLevel(env),
    host,
    port,
    directPort,
    listenHost,
    socketPath,
    pgUrl: connectionSettings(env).pgUrl,
    operatorKey: envOperatorKey(env, host),
    // Straight at the clob, never through the edge: its limits are for clients.
    clobUrl: envString(
      env,
      'PMX_CATALOG_CLOB_URL',
      `http://127.0.0.1:${envInt(env, 'PMX_CLOB_DIRECT_PORT', SERVICE_PORTS.clob.directPort, PORT)}`,
    ),
    // Node's timers take at most 2^31 − 1 ms; past it they fire every millisecond.
    priceRefreshMs: envInt(env, 'PMX_CATALOG_PRICE_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    positionsRefreshMs: envInt(env, 'PMX_CATALOG_POSITIONS_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    authWindowSeconds: envInt(env, 'PMX_AUTH_WINDOW_SECONDS', 30, { min: 1, max: 3600 }),
    maxBodyBytes: envInt(env, 'PMX_MAX_BODY_BYTES', 64 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    corsOrigin: envCorsOrigin(env),
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

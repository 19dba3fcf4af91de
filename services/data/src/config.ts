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
  serviceAddress,
  SERVICE_PORTS,
} from '@pmx/config';
import { Allowlist, DEFAULT_ALLOWLIST } from './allowlist.ts';

/** The longest period a Node timer takes (2^31 − 1 ms, ≈ 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;
const PORT = { min: 0, max: 65_535 };

export interface DataConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  /** Where clients reach the service: the edge's address. */
  host: string;
  port: number;
  /** The service's own port on 127.0.0.1, for tests and internal callers (0: ephemeral). */
  /** The address the direct port binds (PMX_DATA_LISTEN_HOST): 127.0.0.1, or beyond it for an edge elsewhere. */
  listenHost: string;
  directPort: number;
  /** The Unix socket the edge reaches it on, the one place X-Forwarded-For is trusted ('' = none). */
  socketPath: string;
  pgUrl: string;
  /** The trading front end, whose market listing carries the live prices (curPrice). */
  clobUrl: string;
  /** How often prices are read from the clob in bulk; 0 = never (open markets are valued at 0.5). */
  priceRefreshMs: number;
  /** Client addresses allowed to read positions, closed positions and holders. */
  allowlist: Allowlist;
  /** Origin browsers may call from (PMX_CORS_ORIGIN; undefined: no CORS). */
  corsOrigin: string | undefined;
  /** Whole answers kept until what they show changes (a wallet's positions, a market's holders); 0 = none. */
  responseCacheEntries: number;
}

export function loadDataConfig(env: Env): DataConfig {
  const { host, port, directPort, socketPath, listenHost } = serviceAddress(env, 'data');
  return {
    logLevel: envLogLevel(env),
    host,
    port,
    directPort,
    listenHost,
    socketPath,
    pgUrl: connectionSettings(env).pgUrl,
    clobUrl: envString(
      env,
      'PMX_DATA_CLOB_URL',
      `http://127.0.0.1:${envInt(env, 'PMX_CLOB_DIRECT_PORT', SERVICE_PORTS.clob.directPort, PORT)}`,
    ),
    priceRefreshMs: envInt(env, 'PMX_DATA_PRICE_REFRESH_MS', 5000, { min: 0, max: MAX_TIMER_MS }),
    allowlist: Allowlist.parse(envList(env, 'PMX_DATA_ALLOWLIST', DEFAULT_ALLOWLIST)),
    corsOrigin: envCorsOrigin(env),
    responseCacheEntries: envInt(env, 'PMX_DATA_RESPONSE_CACHE', 256, { min: 0, max: 1_000_000 }),
  };
}

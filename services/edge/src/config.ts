// Everything the edge reads from the environment: where each public service is reached (the same
// variables the services read, through @pmx/config's serviceAddress), the caps of the contract's
// rate-limit table, timeouts and the operator port. Nothing else in this service reads process.env.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  type Env,
  envBool,
  envCorsOrigin,
  envInt,
  envList,
  envString,
  type PublicService,
  serviceAddress,
} from '@pmx/config';

const PORT = { min: 0, max: 65_535 };
const CAP = { min: 1, max: 100_000_000 };
const MS = { min: 100, max: 3_600_000 };

/** One row of a rate-limit table: its variable, its default (the contract's value) and what it caps. */
export interface CapSetting {
  variable: string;
  fallback: number;
  what: string;
}

/** The order-book rows, per client IP and 10 s unless said (trading writes: also per API key). */
export const CLOB_CAPS = {
  general: { variable: 'PMX_EDGE_CLOB_GENERAL', fallback: 5000, what: 'every request' },
  health: { variable: 'PMX_EDGE_CLOB_HEALTH', fallback: 50, what: 'GET / and GET /ok' },
  book: { variable: 'PMX_EDGE_CLOB_BOOK', fallback: 200, what: 'GET /book' },
  books: { variable: 'PMX_EDGE_CLOB_BOOKS', fallback: 80, what: 'POST /books' },
  price: { variable: 'PMX_EDGE_CLOB_PRICE', fallback: 200, what: 'GET /price' },
  prices: {
    variable: 'PMX_EDGE_CLOB_PRICES',
    fallback: 80,
    what: 'POST /prices; also each of POST /midpoints, /spreads, /last-trades-prices',
  },
  midpoint: { variable: 'PMX_EDGE_CLOB_MIDPOINT', fallback: 200, what: 'GET /midpoint' },
  pricesHistory: { variable: 'PMX_EDGE_CLOB_PRICES_HISTORY', fallback: 100, what: 'GET /prices-history' },
  batchPricesHistory: {
    variable: 'PMX_EDGE_CLOB_BATCH_PRICES_HISTORY',
    fallback: 80,
    what: 'POST /batch-prices-history',
  },
  trades: { variable: 'PMX_EDGE_CLOB_TRADES', fallback: 150, what: 'GET /trades' },
  apiKeys: { variable: 'PMX_EDGE_CLOB_API_KEYS', fallback: 20, what: 'POST /auth/api-key (not in the contract)' },
  orderBurst: {
    variable: 'PMX_EDGE_CLOB_ORDER_BURST',
    fallback: 2400,
    what: 'POST /order and /orders per 10 s, per client and per API key',
  },
  orderSustained: {
    variable: 'PMX_EDGE_CLOB_ORDER_SUSTAINED',
    fallback: 24_000,
    what: 'POST /order and /orders per 10 min, per client and per API key',
  },
  cancelBurst: {
    variable: 'PMX_EDGE_CLOB_CANCEL_BURST',
    fallback: 2400,
    what: 'DELETE /order, /orders, /cancel-all, /cancel-market-orders per 10 s, per client and per API key',
  },
  cancelSustained: {
    variable: 'PMX_EDGE_CLOB_CANCEL_SUSTAINED',
    fallback: 24_000,
    what: 'the same cancels per 10 min, per client and per API key',
  },
} satisfies Record<string, CapSetting>;

export const CATALOG_CAPS = {
  general: { variable: 'PMX_EDGE_CATALOG_GENERAL', fallback: 4000, what: 'every request' },
  events: { variable: 'PMX_EDGE_CATALOG_EVENTS', fallback: 500, what: 'GET /events and every path under it' },
  markets: { variable: 'PMX_EDGE_CATALOG_MARKETS', fallback: 300, what: 'GET /markets and every path under it' },
  listings: { variable: 'PMX_EDGE_CATALOG_LISTINGS', fallback: 900, what: 'GET /events and GET /markets together' },
  tags: { variable: 'PMX_EDGE_CATALOG_TAGS', fallback: 200, what: 'GET /tags and every path under it' },
  search: { variable: 'PMX_EDGE_CATALOG_SEARCH', fallback: 350, what: 'GET /public-search' },
} satisfies Record<string, CapSetting>;

export const DATA_CAPS = {
  general: { variable: 'PMX_EDGE_DATA_GENERAL', fallback: 1000, what: 'every request (not in the contract)' },
} satisfies Record<string, CapSetting>;

type Caps<T extends Record<string, CapSetting>> = { [K in keyof T]: number };

export interface EdgeService<C> {
  name: PublicService;
  /** Where the edge listens for this service's clients. */
  host: string;
  port: number;
  /** The service's Unix socket, where the edge passes requests on (one server). */
  socketPath: string;
  /**
   * Every replica the edge balances (PMX_EDGE_<SVC>_SERVERS: `unix@/path` or `host:port`, comma
   * separated); by default the one Unix socket. Several are health-checked (GET /) and a dead one
   * is taken out.
   */
  servers: string[];
  /** The largest body the service takes (its own PMX_MAX_BODY_BYTES default): larger is 413 here. */
  maxBodyBytes: number;
  caps: C;
}

export interface EdgeConfig {
  clob: EdgeService<Caps<typeof CLOB_CAPS>>;
  catalog: EdgeService<Caps<typeof CATALOG_CAPS>>;
  data: EdgeService<Caps<typeof DATA_CAPS>>;
  /**
   * The cores of a cluster (PMX_EDGE_CORE_SERVERS, host:port of each core's PMX_CORE_PORT): the
   * order-book port's /operator/ paths go to whichever answers GET /health (the active one).
   * Empty: they go to the order-book service (gateway and core in one process).
   */
  coreServers: string[];
  /**
   * Where history is read (PMX_EDGE_HISTORY_SERVERS): GET /prices-history, POST
   * /batch-prices-history and GET /trades go to these gateways, the ones that serve history (with
   * embedded ClickHouse, the one process that opens it). Empty: to every order-book server.
   */
  historyServers: string[];
  /** Enforce the contract's rate limits (PMX_RATE_LIMITS). */
  rateLimits: boolean;
  /** A whole request head (and a body HAProxy holds) must arrive within this; else 408. */
  requestTimeoutMs: number;
  /** A client silent this long mid-request or mid-answer is dropped. */
  clientTimeoutMs: number;
  /** A service that has not answered in this long: 504. */
  serverTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Largest request head served; larger is 431. */
  maxHeadBytes: number;
  /** Concurrent client connections; 0: what HAProxy derives from the open-files limit. */
  maxConnections: number;
  threads: number;
  /** Entries per stick table (clients, API keys) before the oldest are dropped. */
  tableSize: number;
  /** Proxies in front of the edge whose X-Forwarded-For names the client (addresses or CIDRs). */
  trustedProxies: string[];
  corsOrigin: string | undefined;
  /** The operator port: Prometheus metrics (/metrics) and the stats page (/stats). */
  statsHost: string;
  statsPort: number;
  /** The HAProxy binary. */
  haproxy: string;
  /** Where the rendered config and HAProxy's internal sockets go. */
  runDir: string;
  logLevel: 'emerg' | 'alert' | 'crit' | 'err' | 'warning' | 'notice' | 'info' | 'debug';
}

function caps<T extends Record<string, CapSetting>>(env: Env, table: T): Caps<T> {
  return Object.fromEntries(
    Object.entries(table).map(([key, row]) => [key, envInt(env, row.variable, row.fallback, CAP)]),
  ) as Caps<T>;
}

const SERVER = /^(unix@\/\S+|[0-9A-Za-z.:-]+:\d{1,5})$/;

/** A list of `unix@/path` or `host:port` servers. */
function envServers(env: Env, name: string): string[] {
  const servers = envList(env, name, []);
  const bad = servers.find((server) => !SERVER.test(server));
  if (bad !== undefined) throw new ConfigError(name, `must be unix@/path or host:port entries, got "${bad}"`);
  return servers;
}

function service<C>(env: Env, name: PublicService, bodyDefault: number, serviceCaps: C): EdgeService<C> {
  const address = serviceAddress(env, name);
  const upper = name.toUpperCase();
  const servers = envServers(env, `PMX_EDGE_${upper}_SERVERS`);
  if (servers.length === 0 && address.socketPath === '')
    throw new ConfigError(
      `PMX_${upper}_SOCKET`,
      `must be set when PMX_${upper}_DIRECT_PORT is 0 (the edge needs a fixed way in)`,
    );
  return {
    name,
    host: address.host,
    port: address.port,
    socketPath: address.socketPath,
    servers: servers.length > 0 ? servers : [`unix@${address.socketPath}`],
    maxBodyBytes: envInt(env, 'PMX_MAX_BODY_BYTES', bodyDefault, { min: 1024, max: 64 * 1024 * 1024 }),
    caps: serviceCaps,
  };
}

const LOG_LEVELS = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'] as const;
const CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

export function loadEdgeConfig(env: Env): EdgeConfig {
  const trustedProxies = envList(env, 'PMX_EDGE_TRUSTED_PROXIES', []);
  const bad = trustedProxies.find((entry) => !CIDR.test(entry));
  if (bad !== undefined) throw new ConfigError('PMX_EDGE_TRUSTED_PROXIES', `must be addresses or CIDRs, got "${bad}"`);
  const logLevel = envString(env, 'PMX_EDGE_LOG_LEVEL', 'notice');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError('PMX_EDGE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  return {
    // The services' own body caps by default (services/*/src/config.ts read the same variable).
    clob: service(env, 'clob', 256 * 1024, caps(env, CLOB_CAPS)),
    catalog: service(env, 'catalog', 64 * 1024, caps(env, CATALOG_CAPS)),
    data: service(env, 'data', 64 * 1024, caps(env, DATA_CAPS)),
    coreServers: envServers(env, 'PMX_EDGE_CORE_SERVERS'),
    historyServers: envServers(env, 'PMX_EDGE_HISTORY_SERVERS'),
    rateLimits: envBool(env, 'PMX_RATE_LIMITS', true),
    requestTimeoutMs: envInt(env, 'PMX_EDGE_REQUEST_TIMEOUT_MS', 10_000, MS),
    clientTimeoutMs: envInt(env, 'PMX_EDGE_CLIENT_TIMEOUT_MS', 30_000, MS),
    serverTimeoutMs: envInt(env, 'PMX_EDGE_SERVER_TIMEOUT_MS', 30_000, MS),
    keepAliveTimeoutMs: envInt(env, 'PMX_EDGE_KEEP_ALIVE_TIMEOUT_MS', 10_000, MS),
    maxHeadBytes: envInt(env, 'PMX_EDGE_MAX_HEAD_BYTES', 16 * 1024, { min: 4096, max: 256 * 1024 }),
    maxConnections: envInt(env, 'PMX_EDGE_MAX_CONNECTIONS', 0, { min: 0, max: 10_000_000 }),
    threads: envInt(env, 'PMX_EDGE_THREADS', 1, { min: 1, max: 64 }),
    tableSize: envInt(env, 'PMX_EDGE_TABLE_SIZE', 100_000, { min: 1000, max: 100_000_000 }),
    trustedProxies,
    corsOrigin: envCorsOrigin(env),
    statsHost: envString(env, 'PMX_EDGE_STATS_HOST', '127.0.0.1'),
    statsPort: envInt(env, 'PMX_EDGE_STATS_PORT', 8404, PORT),
    haproxy: envString(env, 'PMX_EDGE_HAPROXY', 'haproxy'),
    runDir: envString(env, 'PMX_EDGE_RUN_DIR', join(tmpdir(), 'pmx-edge')),
    logLevel: logLevel as EdgeConfig['logLevel'],
  };
}

// Everything the trading front end reads from the environment, with defaults that run on a
// fresh machine after infra/setup.sh. Nothing else in this service reads process.env.

import { availableParallelism } from 'node:os';
import { ADDRESS_HEX } from '@pmx/codec';
// The constants alone: the package's index loads the native recovery addon (and logs which), which
// the `pmx` command line, reading this config, has no use for.
import { DEFAULT_CHAIN_ID, DEFAULT_EXCHANGE, DEFAULT_NEG_RISK_EXCHANGE } from '@pmx/signing/exchanges';
import {
  ConfigError,
  connectionSettings,
  type Env,
  envBool,
  envCorsOrigin,
  envInt,
  envList,
  envLogLevel,
  envMatch,
  envOperatorKey,
  envString,
  type LogLevel,
  serviceAddress,
} from '@pmx/config';

export { DEV_OPERATOR_KEY } from '@pmx/config';

export interface ClobConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  /** Where clients reach this service: the edge's address (the operator key is required beyond loopback). */
  host: string;
  port: number;
  /** Where clients (and the `pmx` CLI) reach this service. */
  url: string;
  /** This service's own port on 127.0.0.1, for tests and internal callers (0: ephemeral). */
  directPort: number;
  /** The Unix socket the edge reaches this service on, the one place X-Forwarded-For is trusted ('' = none). */
  socketPath: string;
  /** The address the direct port binds: 127.0.0.1, or 0.0.0.0 for an edge on another host (a cluster's gateways). */
  listenHost: string;
  /** The core's own address in a cluster: its WebSocket for gateways, the operator API and /health. */
  coreHost: string;
  corePort: number;
  /** Where a gateway finds the cores (active and standbys), tried in turn. */
  coreUrls: string[];
  /** A core that waits for the shard locks while another core has them, and takes over when it dies. */
  coreStandby: boolean;
  /** How long a gateway holds a command while no core answers (a failover) before it refuses it (503). */
  coreWaitMs: number;
  /** Shard threads, each owning the books of the markets that hash to it. */
  shards: number;
  /** Signature-verification threads. */
  verifyThreads: number;
  /** A shard whose events have not been stored for this long refuses new orders (503). */
  shardStallMs: number;
  pgUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /**
   * Copy the ledger's history into ClickHouse and serve it (/prices-history, /trades). Embedded
   * chdb opens in one process only, so this front end, not ingest, runs the copy by default.
   */
  history: boolean;
  clickhouseUrl: string;
  clickhousePath: string;
  /**
   * Copy the ledger's history into ClickHouse from this process when it serves history. Off for
   * all gateways but one in a cluster, or all of them when ingest copies (PMX_INGEST_HISTORY).
   */
  historyCopy: boolean;
  /** Bearer token of the operator API (markets, funding, proxy wallets). */
  operatorKey: string;
  chainId: number;
  exchangeAddress: string;
  negRiskExchangeAddress: string;
  /** How far SVC_TIMESTAMP may be from the server clock, in seconds. */
  authWindowSeconds: number;
  /**
   * Orders whose own timestamp is within this many seconds of the server clock are checked for
   * replays in memory; others need a ledger lookup (see docs/reference/clob.md).
   */
  replayWindowSeconds: number;
  maxBodyBytes: number;
  /** Origin browsers may call from (PMX_CORS_ORIGIN; undefined: no CORS). */
  corsOrigin: string | undefined;
  /** Create the demo markets at start when they are missing. */
  demoMarkets: boolean;
  /** Addresses funded with demo collateral at start (comma separated). */
  demoFund: string[];
  /** How long an API key that armed its heartbeat may stay silent before its orders are cancelled. */
  heartbeatTimeoutMs: number;
}

/** Where a client on this machine reaches a server bound to `host` (an IPv6 literal in brackets). */
function reachable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** A comma-separated list of addresses; an entry that is not one is a config error, not a balance. */
function envAddresses(env: Env, name: string): string[] {
  const list = envList(env, name, []);
  const bad = list.find((address) => !ADDRESS_HEX.test(address));
  if (bad !== undefined)
    throw new ConfigError(name, `must be 0x-prefixed 20-byte addresses separated by commas, got "${bad}"`);
  return list;
}

export function loadClobConfig(env: Env): ClobConfig {
  const connections = connectionSettings(env);
  const { host, port, directPort, socketPath, listenHost } = serviceAddress(env, 'clob');
  return {
    logLevel: envLogLevel(env),
    host,
    port,
    url: envString(env, 'PMX_CLOB_URL', `http://${reachable(host)}:${port}`),
    directPort,
    socketPath,
    listenHost,
    coreHost: envString(env, 'PMX_CORE_HOST', '127.0.0.1'),
    corePort: envInt(env, 'PMX_CORE_PORT', 8090, { min: 0, max: 65_535 }),
    coreUrls: envList(env, 'PMX_CORE_URLS', ['ws://127.0.0.1:8090']),
    coreStandby: envBool(env, 'PMX_CORE_STANDBY', false),
    coreWaitMs: envInt(env, 'PMX_CORE_WAIT_MS', 3_000, { min: 0, max: 60_000 }),
    shards: envInt(env, 'PMX_SHARDS', availableParallelism(), { min: 1, max: 1024 }),
    verifyThreads: envInt(env, 'PMX_VERIFY_THREADS', availableParallelism(), { min: 1, max: 1024 }),
    shardStallMs: envInt(env, 'PMX_SHARD_STALL_MS', 5_000, { min: 100, max: 600_000 }),
    pgUrl: connections.pgUrl,
    history: envBool(env, 'PMX_HISTORY', true),
    clickhouseUrl: connections.clickhouseUrl,
    clickhousePath: connections.clickhousePath,
    historyCopy: envBool(env, 'PMX_HISTORY_COPY', true),
    redisUrl: connections.redisUrl,
    redisPrefix: connections.redisPrefix,
    operatorKey: envOperatorKey(env, host),
    chainId: envInt(env, 'PMX_CHAIN_ID', DEFAULT_CHAIN_ID, { min: 1 }),
    exchangeAddress: envMatch(
      env,
      'PMX_EXCHANGE_ADDRESS',
      DEFAULT_EXCHANGE,
      ADDRESS_HEX,
      'a 0x-prefixed 20-byte address',
    ),
    negRiskExchangeAddress: envMatch(
      env,
      'PMX_NEG_RISK_EXCHANGE_ADDRESS',
      DEFAULT_NEG_RISK_EXCHANGE,
      ADDRESS_HEX,
      'a 0x-prefixed 20-byte address',
    ),
    authWindowSeconds: envInt(env, 'PMX_AUTH_WINDOW_SECONDS', 30, { min: 1, max: 3600 }),
    replayWindowSeconds: envInt(env, 'PMX_REPLAY_WINDOW_SECONDS', 120, { min: 1, max: 86_400 }),
    maxBodyBytes: envInt(env, 'PMX_MAX_BODY_BYTES', 256 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    corsOrigin: envCorsOrigin(env),
    demoMarkets: envBool(env, 'PMX_DEMO_MARKETS', false),
    demoFund: envAddresses(env, 'PMX_DEMO_FUND'),
    heartbeatTimeoutMs: envInt(env, 'PMX_HEARTBEAT_TIMEOUT_MS', 10_000, { min: 1000, max: 600_000 }),
  };
}

// Defaults for the connection settings every service shares, chosen to work on a fresh
// machine after infra/setup.sh; services read overrides through connectionSettings(env).
import { fileURLToPath } from 'node:url';
import { ConfigError, envString, redactUrl, type Env } from './env-readers.ts';

/**
 * The repository's data folder, whichever directory a service starts in (`pnpm --filter` runs
 * each in its own package folder: a relative default gave each service a history of its own).
 */
const DATA_DIR = fileURLToPath(new URL('../../../data/', import.meta.url));

export const defaults = {
  /** Postgres, the ledger. */
  PMX_PG_URL: 'postgres://pmx:pmx@127.0.0.1:5432/pmx',
  /** Redis, the shard queues. */
  PMX_REDIS_URL: 'redis://127.0.0.1:6379',
  /** ClickHouse server URL; empty means embedded chdb at PMX_CLICKHOUSE_PATH. */
  PMX_CLICKHOUSE_URL: '',
  /** chdb data directory, used only when PMX_CLICKHOUSE_URL is empty: data/clickhouse of the repository. */
  PMX_CLICKHOUSE_PATH: `${DATA_DIR}clickhouse`,
  /** Prefix of every Redis key pmx writes, so several deployments or tests can share a server. */
  PMX_REDIS_PREFIX: 'pmx',
} as const;

export interface ConnectionSettings {
  pgUrl: string;
  redisUrl: string;
  /** Empty string: use embedded chdb. */
  clickhouseUrl: string;
  clickhousePath: string;
  redisPrefix: string;
}

/**
 * A URL setting with one of the given schemes: the clients' own errors for anything else would not
 * name the variable. Only the scheme is checked (a password may hold `/`, which a URL parser refuses).
 */
function envUrl(env: Env, name: keyof typeof defaults, schemes: readonly string[]): string {
  const value = envString(env, name, defaults[name]);
  if (value === '' && defaults[name] === '') return value;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || !schemes.includes(scheme)) {
    throw new ConfigError(
      name,
      `must be a ${schemes.map((s) => `${s}://`).join(' or ')} URL, got "${redactUrl(value)}"`,
    );
  }
  return value;
}

export function connectionSettings(env: Env): ConnectionSettings {
  return {
    pgUrl: envUrl(env, 'PMX_PG_URL', ['postgres', 'postgresql']),
    // Not checked: ioredis takes redis:// and rediss:// URLs, host:port, a Unix socket's path and unix://.
    redisUrl: envString(env, 'PMX_REDIS_URL', defaults.PMX_REDIS_URL),
    clickhouseUrl: envUrl(env, 'PMX_CLICKHOUSE_URL', ['http', 'https']),
    clickhousePath: envString(env, 'PMX_CLICKHOUSE_PATH', defaults.PMX_CLICKHOUSE_PATH),
    redisPrefix: envString(env, 'PMX_REDIS_PREFIX', defaults.PMX_REDIS_PREFIX),
  };
}

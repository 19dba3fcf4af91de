// Defaults for the connection settings every service shares, chosen to work on a fresh
// machine after infra/setup.sh; services read overrides through connectionSettings(env).
import { fileURLToPath } from 'node:url';
import { envString, type Env } from './env-readers.ts';

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

export function connectionSettings(env: Env): ConnectionSettings {
  return {
    pgUrl: envString(env, 'PMX_PG_URL', defaults.PMX_PG_URL),
    redisUrl: envString(env, 'PMX_REDIS_URL', defaults.PMX_REDIS_URL),
    clickhouseUrl: envString(env, 'PMX_CLICKHOUSE_URL', defaults.PMX_CLICKHOUSE_URL),
    clickhousePath: envString(env, 'PMX_CLICKHOUSE_PATH', defaults.PMX_CLICKHOUSE_PATH),
    redisPrefix: envString(env, 'PMX_REDIS_PREFIX', defaults.PMX_REDIS_PREFIX),
  };
}

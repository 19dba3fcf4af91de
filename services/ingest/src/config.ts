// Everything ingest reads from the environment, with defaults that run on a fresh machine after
// infra/setup.sh. Nothing else in this service reads process.env.

import { availableParallelism } from 'node:os';
import { connectionSettings, type Env, envBool, envInt, envLogLevel, type LogLevel } from '@pmx/config';

export interface IngestConfig {
  /** Level of the service's log (PMX_LOG_LEVEL). */
  logLevel: LogLevel;
  pgUrl: string;
  redisUrl: string;
  /** BullMQ prefix of the shard queues; the front end uses the same. */
  redisPrefix: string;
  /** Empty: embedded chdb at clickhousePath. */
  clickhouseUrl: string;
  clickhousePath: string;
  /** Shard queues to consume: must equal the front end's PMX_SHARDS. */
  shards: number;
  /**
   * Copy the history into ClickHouse from this process. Off by default: embedded chdb can be open
   * in one process only, and the trading front end, which serves the history, runs the copy.
   */
  history: boolean;
  /** Longest a committed batch waits before it is copied to ClickHouse, ms. */
  historyFlushMs: number;
  /** How often failed batches are retried, ms. */
  healIntervalMs: number;
  /** Most consecutive batches of one shard committed in one transaction. */
  maxBatchesPerTransaction: number;
}

export function loadIngestConfig(env: Env): IngestConfig {
  const connections = connectionSettings(env);
  return {
    logLevel: envLogLevel(env),
    pgUrl: connections.pgUrl,
    redisUrl: connections.redisUrl,
    redisPrefix: connections.redisPrefix,
    clickhouseUrl: connections.clickhouseUrl,
    clickhousePath: connections.clickhousePath,
    // The same range as the front end's: a shard count of 0 consumed nothing, and the front end's
    // next start then waited for ingest for ever.
    shards: envInt(env, 'PMX_SHARDS', availableParallelism(), { min: 1, max: 1024 }),
    history: envBool(env, 'PMX_INGEST_HISTORY', false),
    historyFlushMs: envInt(env, 'PMX_INGEST_HISTORY_FLUSH_MS', 200, { min: 1, max: 3_600_000 }),
    healIntervalMs: envInt(env, 'PMX_INGEST_HEAL_INTERVAL_MS', 5000, { min: 100, max: 3_600_000 }),
    maxBatchesPerTransaction: envInt(env, 'PMX_INGEST_MAX_BATCHES_PER_TX', 64, { min: 1, max: 10_000 }),
  };
}

// `pnpm --filter @pmx/ingest start`: consumes every shard queue into the Postgres ledger and
// copies the history into ClickHouse until SIGINT/SIGTERM, then finishes the batches in hand.

import { openClickHouse } from '@pmx/clickhouse';
import { connectPostgres } from '@pmx/db';
import { Redis } from 'ioredis';
import { loadIngestConfig } from './config.ts';
import { startIngest } from './ingest.ts';
import { handleStopSignals, logger, reportConnectionErrors, reportStartFailures, setLogLevel } from '@pmx/config';

const running = reportStartFailures('ingest');

const config = loadIngestConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('ingest');
const sql = connectPostgres(config.pgUrl, { max: config.shards + 4 });
const ch = config.history ? openClickHouse({ url: config.clickhouseUrl, path: config.clickhousePath }) : undefined;
const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
reportConnectionErrors(redis, 'ingest', config.redisUrl, (line) => log.error(line));

const ingest = await startIngest({
  sql,
  ch,
  redis,
  prefix: config.redisPrefix,
  shards: config.shards,
  healIntervalMs: config.healIntervalMs,
  maxBatchesPerTransaction: config.maxBatchesPerTransaction,
  history: { flushIntervalMs: config.historyFlushMs },
});
const historyTarget =
  ch === undefined ? 'copied by another process' : `in ${config.clickhouseUrl || config.clickhousePath}`;
running();
log.info(`consuming ${config.shards} shard queues (prefix ${config.redisPrefix}), history ${historyTarget}`);

handleStopSignals('ingest', async () => {
  log.info('finishing the batches in hand');
  try {
    await ingest.close();
  } finally {
    redis.disconnect();
    await ch?.close();
    await sql.end({ timeout: 5 });
  }
});

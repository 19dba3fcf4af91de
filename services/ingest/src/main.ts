// `pnpm --filter @pmx/ingest start`: consumes every shard queue into the Postgres ledger and
// copies the history into ClickHouse until SIGINT/SIGTERM, then finishes the batches in hand.

import { openClickHouse } from '@pmx/clickhouse';
import { connectPostgres } from '@pmx/db';
import { Redis } from 'ioredis';
import { loadIngestConfig } from './config.ts';
import { startIngest } from './ingest.ts';
import { handleStopSignals, reportConnectionErrors, reportStartFailures } from '@pmx/config';

const running = reportStartFailures('ingest');

const config = loadIngestConfig(process.env);
const sql = connectPostgres(config.pgUrl, { max: config.shards + 4 });
const ch = config.history ? openClickHouse({ url: config.clickhouseUrl, path: config.clickhousePath }) : undefined;
const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
reportConnectionErrors(redis, 'ingest', config.redisUrl, (line) => console.error(line));

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
console.log(`ingest: consuming ${config.shards} shard queues (prefix ${config.redisPrefix}), history ${historyTarget}`);

handleStopSignals('ingest', async () => {
  console.log('ingest: finishing the batches in hand');
  try {
    await ingest.close();
  } finally {
    redis.disconnect();
    await ch?.close();
    await sql.end({ timeout: 5 });
  }
});

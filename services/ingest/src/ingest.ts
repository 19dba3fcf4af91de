// Ingest assembled: one ledger and one queue consumer per shard, and the history follower that
// copies committed batches into ClickHouse. The caller owns the connections it passes in.

import type { ClickHouseClient } from '@pmx/clickhouse';
import type { Sql } from '@pmx/db';
import type { Redis } from 'ioredis';
import { HistoryFollower, type HistoryFollowerOptions } from '@pmx/ledger';
import { MarketDirectory } from './ledger/market-directory.ts';
import { ShardLedger } from './ledger/shard-ledger.ts';
import { ShardConsumer, type CommittedBatch } from './queue/shard-consumer.ts';

export interface IngestOptions {
  sql: Sql;
  /** Where to copy the history; absent: this process only writes the ledger (see docs/reference/ingest.md). */
  ch?: ClickHouseClient;
  /** ioredis connection with maxRetriesPerRequest: null. */
  redis: Redis;
  /** BullMQ prefix (PMX_REDIS_PREFIX). */
  prefix: string;
  /** Must equal the front end's shard count (PMX_SHARDS). */
  shards: number;
  healIntervalMs?: number;
  /** Most consecutive batches of a shard committed in one transaction (default 64). */
  maxBatchesPerTransaction?: number;
  history?: Pick<HistoryFollowerOptions, 'flushIntervalMs' | 'flushEvents' | 'maxSeqPerFlush'>;
  onCommitted?: (batch: CommittedBatch) => void;
  onHistoryFlushed?: (shard: number, seq: number, at: number) => void;
  log?: (message: string) => void;
}

export interface Ingest {
  readonly ledgers: readonly ShardLedger[];
  readonly consumers: readonly ShardConsumer[];
  readonly history: HistoryFollower | null;
  /** Finishes the batches in hand, copies what is committed to ClickHouse, and stops. */
  close(): Promise<void>;
}

export async function startIngest(options: IngestOptions): Promise<Ingest> {
  const markets = new MarketDirectory(options.sql);
  const history =
    options.ch === undefined
      ? null
      : new HistoryFollower({
          sql: options.sql,
          ch: options.ch,
          ...options.history,
          onFlushed: options.onHistoryFlushed,
          log: options.log,
        });
  await history?.start();
  const ledgers = Array.from({ length: options.shards }, (_, shard) => new ShardLedger(options.sql, shard, markets));
  const consumers = ledgers.map(
    (ledger) =>
      new ShardConsumer({
        ledger,
        connection: options.redis,
        prefix: options.prefix,
        healIntervalMs: options.healIntervalMs,
        maxBatchesPerTransaction: options.maxBatchesPerTransaction,
        log: options.log,
        onCommitted: (batch) => {
          history?.notify(batch.shard, batch.toSeq, batch.events);
          options.onCommitted?.(batch);
        },
      }),
  );
  await Promise.all(consumers.map((consumer) => consumer.start()));
  return {
    ledgers,
    consumers,
    history,
    async close() {
      await Promise.all(consumers.map((consumer) => consumer.close()));
      await history?.close();
    },
  };
}

// The ClickHouse tables of the price history, created by ingest and read by the query modules.
// ReplacingMergeTree everywhere: ingest copies from Postgres at least once, so a row may arrive
// twice after a crash; readers use FINAL (or max()) and see it once.

import type { ClickHouseClient } from '@pmx/clickhouse';

export const HISTORY_TABLES = {
  /** One row per trade, in the taker's terms (GET /trades). */
  trades: 'trades',
  /** Per outcome token: every fill's price ('trade', with its size) and every midpoint change ('mid'). */
  pricePoints: 'price_points',
  /** Highest shard sequence number copied from Postgres, per shard, and from which ledger. */
  offsets: 'history_offsets',
} as const;

export type PricePointKind = 'trade' | 'mid';

const DDL = [
  `CREATE TABLE IF NOT EXISTS ${HISTORY_TABLES.trades} (
     trade_id String,
     shard UInt32,
     seq UInt64,
     market String,
     asset_id String,
     outcome String,
     side LowCardinality(String),
     size UInt64,
     notional UInt64,
     price String,
     price_num Float64,
     match_time DateTime64(3, 'UTC'),
     fee_rate_bps UInt32,
     transaction_hash String,
     taker_order_id String,
     maker_count UInt32
   ) ENGINE = ReplacingMergeTree ORDER BY (market, match_time, trade_id)`,
  `CREATE TABLE IF NOT EXISTS ${HISTORY_TABLES.pricePoints} (
     asset_id String,
     kind LowCardinality(String),
     ts DateTime64(3, 'UTC'),
     ref String,
     market String,
     price Float64,
     size UInt64,
     shard UInt32,
     seq UInt64
   ) ENGINE = ReplacingMergeTree ORDER BY (asset_id, kind, ts, ref)`,
  `CREATE TABLE IF NOT EXISTS ${HISTORY_TABLES.offsets} (
     shard UInt32,
     seq UInt64,
     at DateTime64(3, 'UTC'),
     ledger String DEFAULT ''
   ) ENGINE = ReplacingMergeTree(seq) ORDER BY shard`,
  // Tables made by earlier versions (both are no-ops once done): a trade's maker count was a
  // UInt16 and wrapped past 65,535 fills; offsets did not say which ledger they came from.
  `ALTER TABLE ${HISTORY_TABLES.trades} MODIFY COLUMN maker_count UInt32`,
  `ALTER TABLE ${HISTORY_TABLES.offsets} ADD COLUMN IF NOT EXISTS ledger String DEFAULT ''`,
];

export async function ensureHistorySchema(ch: ClickHouseClient): Promise<void> {
  for (const query of DDL) await ch.command({ query });
}

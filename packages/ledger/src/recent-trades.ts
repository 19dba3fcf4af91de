// A market's most recent trades from ClickHouse, for the public GET /trades: the contract's
// Trade fields that do not identify an account (no addresses, owners or maker orders).

import type { ClickHouseClient } from '@pmx/clickhouse';
import { formatUnits } from '@pmx/codec';
import { HISTORY_TABLES } from './history-tables.ts';
import type { Trade } from './trades.ts';

export type PublicTrade = Pick<
  Trade,
  | 'id'
  | 'taker_order_id'
  | 'market'
  | 'asset_id'
  | 'side'
  | 'size'
  | 'fee_rate_bps'
  | 'price'
  | 'status'
  | 'match_time'
  | 'outcome'
  | 'transaction_hash'
  | 'bucket_index'
>;

export interface RecentTradesQuery {
  /** Condition id. */
  market: string;
  /** Only trades of this token (the taker's side), when given. */
  assetId?: string;
  /** Unix seconds: only trades strictly before. */
  before?: number;
  /** Default 100, at most 1,000. */
  limit?: number;
}

interface Row {
  trade_id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: string;
  size: string;
  fee_rate_bps: number;
  price: string;
  ms: string;
  outcome: string;
  transaction_hash: string;
}

export async function recentTrades(ch: ClickHouseClient, query: RecentTradesQuery): Promise<PublicTrade[]> {
  const limit = Math.min(1000, Math.max(1, Math.trunc(query.limit ?? 100)));
  const result = await ch.query({
    query: `
      SELECT trade_id, taker_order_id, market, asset_id, side, size, fee_rate_bps, price,
             toUnixTimestamp64Milli(match_time) AS ms, outcome, transaction_hash
        FROM ${HISTORY_TABLES.trades} FINAL
       WHERE market = {market:String}
         ${query.assetId === undefined ? '' : 'AND asset_id = {asset:String}'}
         ${query.before === undefined ? '' : 'AND match_time < fromUnixTimestamp64Milli({before:Int64})'}
       ORDER BY match_time DESC, shard DESC, seq DESC
       LIMIT {limit:UInt32}`,
    query_params: {
      market: query.market.toLowerCase(),
      asset: query.assetId ?? '',
      before: (query.before ?? 0) * 1000,
      limit,
    },
    format: 'JSONEachRow',
  });
  return (await result.json<Row>()).map((row) => ({
    id: row.trade_id,
    taker_order_id: row.taker_order_id,
    market: row.market,
    asset_id: row.asset_id,
    side: row.side,
    size: formatUnits(BigInt(row.size)),
    fee_rate_bps: String(row.fee_rate_bps),
    price: row.price,
    status: 'CONFIRMED',
    match_time: new Date(Number(row.ms)).toISOString(),
    outcome: row.outcome,
    transaction_hash: row.transaction_hash,
    bucket_index: 0,
  }));
}

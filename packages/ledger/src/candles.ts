// OHLCV candles of an outcome token from the fills' prices in ClickHouse, computed at query time
// over the deduplicated price points. Not a materialized view: one sees every insert, so a copy
// repeated after a crash would count volume twice; the table's order by token and time keeps a
// candle range a short primary-key scan.

import type { ClickHouseClient } from '@pmx/clickhouse';
import { HISTORY_TABLES } from './history-tables.ts';

export const CANDLE_INTERVALS = { '1m': 60, '1h': 3600, '1d': 86_400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

export interface Candle {
  /** Unix seconds, the start of the candle. */
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Tokens traded (base units / 10^6), the pairs of a mint or merge counted once per token. */
  volume: number;
  trades: number;
}

export interface CandleQuery {
  assetId: string;
  interval: CandleInterval;
  /** Unix seconds, inclusive; default the last 500 candles up to endTs. */
  startTs?: number;
  /** Unix seconds, inclusive; default now. */
  endTs?: number;
}

interface Row {
  t: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: string;
  trades: string;
}

export async function candles(ch: ClickHouseClient, query: CandleQuery): Promise<Candle[]> {
  const step = CANDLE_INTERVALS[query.interval];
  if (step === undefined) throw new RangeError(`interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}`);
  const end = Math.trunc(query.endTs ?? Date.now() / 1000);
  const start = Math.trunc(query.startTs ?? end - 500 * step);
  const result = await ch.query({
    query: `
      SELECT intDiv(toUnixTimestamp(ts), {step:UInt32}) * {step:UInt32} AS t,
             argMin(price, (ts, seq, length(ref), ref)) AS open, max(price) AS high, min(price) AS low, argMax(price, (ts, seq, length(ref), ref)) AS close,
             sum(size) AS volume, count() AS trades
        FROM ${HISTORY_TABLES.pricePoints} FINAL
       WHERE asset_id = {asset:String} AND kind = 'trade'
         AND ts >= toDateTime64({start:Int64}, 3, 'UTC') AND ts < toDateTime64({end:Int64} + 1, 3, 'UTC')
       GROUP BY t ORDER BY t`,
    query_params: { asset: query.assetId, step, start, end },
    format: 'JSONEachRow',
  });
  return (await result.json<Row>()).map((row) => ({
    t: Number(row.t),
    open: row.open,
    high: row.high,
    low: row.low,
    close: row.close,
    volume: Number(row.volume) / 1_000_000,
    trades: Number(row.trades),
  }));
}

// Reads what a shard committed in a range of sequence numbers from Postgres and shapes it as
// ClickHouse rows: trades, each fill's price for both outcome tokens, and midpoint changes.
// Postgres is the source of the history, so a lost ClickHouse write is simply read again.

import type { Sql } from '@pmx/db';
import { trimDecimal } from '../decimal-text.ts';
import type { PricePointKind } from '../history-tables.ts';
import { ticksPerUnitOf } from '../ticks.ts';

export interface TradeHistoryRow {
  trade_id: string;
  shard: number;
  seq: number;
  market: string;
  asset_id: string;
  outcome: string;
  side: string;
  size: number;
  notional: number;
  price: string;
  price_num: number;
  match_time: number;
  fee_rate_bps: number;
  transaction_hash: string;
  taker_order_id: string;
  maker_count: number;
}

export interface PricePointRow {
  asset_id: string;
  kind: PricePointKind;
  ts: number;
  ref: string;
  market: string;
  price: number;
  size: number;
  shard: number;
  seq: number;
}

export interface HistoryRows {
  trades: TradeHistoryRow[];
  points: PricePointRow[];
}

interface MarketColumns {
  token0: string;
  token1: string;
  tick_size: string;
}

/** Prices of both tokens from a price in the first token's ticks (the second's is the complement). */
function bothTokens(market: MarketColumns, firstTicks: number, denominator: number): [string, number][] {
  return [
    [market.token0, firstTicks / denominator],
    [market.token1, (denominator - firstTicks) / denominator],
  ];
}

export async function readHistoryRows(
  sql: Sql,
  shard: number,
  afterSeq: number,
  upToSeq: number,
): Promise<HistoryRows> {
  const [trades, fills, mids] = await Promise.all([
    sql<
      (MarketColumns & {
        trade_id: string;
        seq: string;
        market: string;
        asset_id: string;
        taker_token: number;
        side: string;
        size: string;
        notional: string;
        price: string;
        ms: string;
        fee_rate_bps: number;
        transaction_hash: string;
        taker_order_id: string;
        outcome0: string;
        outcome1: string;
        makers: string;
      })[]
    >`
      SELECT t.trade_id, t.seq, t.market, t.asset_id, t.taker_token, t.side, t.size, t.notional, t.price::text AS price,
             (extract(epoch FROM t.match_time) * 1000)::bigint AS ms, t.fee_rate_bps, t.transaction_hash, t.taker_order_id,
             m.outcome0, m.outcome1, m.token0, m.token1, m.tick_size,
             (SELECT count(*) FROM trade_fills f WHERE f.trade_id = t.trade_id) AS makers
        FROM trades t JOIN markets m ON m.condition_id = t.market
       WHERE t.shard = ${shard} AND t.seq > ${afterSeq} AND t.seq <= ${upToSeq}
       ORDER BY t.seq`,
    sql<
      (MarketColumns & {
        trade_id: string;
        idx: number;
        seq: string;
        market: string;
        size: string;
        taker_price_ticks: number;
        taker_token: number;
        ms: string;
      })[]
    >`
      SELECT f.trade_id, f.idx, t.seq, t.market, f.size, f.taker_price_ticks, t.taker_token,
             (extract(epoch FROM t.match_time) * 1000)::bigint AS ms, m.token0, m.token1, m.tick_size
        FROM trades t JOIN trade_fills f ON f.trade_id = t.trade_id JOIN markets m ON m.condition_id = t.market
       WHERE t.shard = ${shard} AND t.seq > ${afterSeq} AND t.seq <= ${upToSeq}`,
    sql<(MarketColumns & { market: string; seq: string; ms: string; bid_ticks: number; ask_ticks: number })[]>`
      SELECT c.market, c.seq, (extract(epoch FROM c.at) * 1000)::bigint AS ms, c.bid_ticks, c.ask_ticks, m.token0, m.token1, m.tick_size
        FROM midpoint_changes c JOIN markets m ON m.condition_id = c.market
       WHERE c.shard = ${shard} AND c.seq > ${afterSeq} AND c.seq <= ${upToSeq}`,
  ]);

  const rows: HistoryRows = { trades: [], points: [] };
  for (const t of trades) {
    rows.trades.push({
      trade_id: t.trade_id,
      shard,
      seq: Number(t.seq),
      market: t.market,
      asset_id: t.asset_id,
      outcome: t.taker_token === 0 ? t.outcome0 : t.outcome1,
      side: t.side,
      size: Number(t.size),
      notional: Number(t.notional),
      price: trimDecimal(t.price),
      price_num: Number(t.price),
      match_time: Number(t.ms),
      fee_rate_bps: t.fee_rate_bps,
      transaction_hash: t.transaction_hash,
      taker_order_id: t.taker_order_id,
      maker_count: Number(t.makers),
    });
  }
  for (const f of fills) {
    const n = ticksPerUnitOf(f.tick_size);
    const firstTicks = f.taker_token === 0 ? f.taker_price_ticks : n - f.taker_price_ticks;
    for (const [asset, price] of bothTokens(f, firstTicks, n)) {
      rows.points.push({
        asset_id: asset,
        kind: 'trade',
        ts: Number(f.ms),
        ref: `${f.trade_id}#${f.idx}`,
        market: f.market,
        price,
        size: Number(f.size),
        shard,
        seq: Number(f.seq),
      });
    }
  }
  for (const c of mids) {
    const n = ticksPerUnitOf(c.tick_size);
    for (const [asset, price] of bothTokens(c, c.bid_ticks + c.ask_ticks, 2 * n)) {
      rows.points.push({
        asset_id: asset,
        kind: 'mid',
        ts: Number(c.ms),
        ref: `${shard}-${c.seq}`,
        market: c.market,
        price,
        size: 0,
        shard,
        seq: Number(c.seq),
      });
    }
  }
  return rows;
}

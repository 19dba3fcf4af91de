// Price history of an outcome token from ClickHouse, for GET /prices-history and
// POST /batch-prices-history: one point per `fidelity` minutes, epoch-aligned, p = the last
// midpoint in that bucket, carried forward through buckets where it did not change (so a flat
// market still draws a line up to the end of the window).

import type { ClickHouseClient } from '@pmx/clickhouse';
import { HISTORY_TABLES, type PricePointKind } from './history-tables.ts';

/** Window lengths in seconds (`1m` is one month); `max` is everything since the first point. */
export const PRICE_INTERVALS = {
  '1m': 30 * 86_400,
  '1w': 7 * 86_400,
  '1d': 86_400,
  '6h': 6 * 3600,
  '1h': 3600,
  max: 0,
} as const;
export type PriceInterval = keyof typeof PRICE_INTERVALS;

export const MAX_BATCH_PRICE_HISTORY_MARKETS = 20;
/** A window that would need more points than this is answered at a coarser fidelity. */
export const MAX_HISTORY_POINTS = 10_000;

export interface PriceHistoryOptions {
  /** Unix seconds; with startTs/endTs the interval is ignored. */
  startTs?: number;
  endTs?: number;
  /** Default `max` when neither it nor startTs is given. */
  interval?: PriceInterval;
  /** Minutes per point, default 1. */
  fidelity?: number;
  /** 'mid' (the contract's midpoint, default) or 'trade' (last trade price). */
  source?: PricePointKind;
  /** Unix seconds standing for "now" (tests). */
  now?: number;
}

export interface PricePoint {
  /** Unix seconds, the start of the bucket. */
  t: number;
  p: number;
}

/** A request the caller should answer with 400. */
export class PriceHistoryError extends Error {
  override readonly name = 'PriceHistoryError';
}

export function isPriceInterval(value: unknown): value is PriceInterval {
  return typeof value === 'string' && Object.hasOwn(PRICE_INTERVALS, value);
}

interface Window {
  start: number | null;
  end: number;
  step: number;
}

function resolveWindow(options: PriceHistoryOptions): Window {
  const fidelity = options.fidelity ?? 1;
  if (!Number.isInteger(fidelity) || fidelity < 1)
    throw new PriceHistoryError('fidelity must be a whole number of minutes, at least 1');
  if (options.interval !== undefined && !isPriceInterval(options.interval)) {
    throw new PriceHistoryError(`interval must be one of ${Object.keys(PRICE_INTERVALS).join(', ')}`);
  }
  const end = Math.trunc(options.endTs ?? options.now ?? Date.now() / 1000);
  let start: number | null = null;
  if (options.startTs !== undefined) start = Math.trunc(options.startTs);
  else if (options.interval !== undefined && options.interval !== 'max')
    start = end - PRICE_INTERVALS[options.interval];
  return { start, end, step: fidelity * 60 };
}

/** Widens the step (in whole minutes) until the window fits MAX_HISTORY_POINTS. */
function fitStep(start: number, end: number, step: number): number {
  const buckets = (end - start) / step;
  return buckets <= MAX_HISTORY_POINTS ? step : Math.ceil((end - start) / MAX_HISTORY_POINTS / 60) * 60;
}

async function rows<T>(ch: ClickHouseClient, query: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await ch.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}

/** How far back the price in force at a window's start is looked for, widening; null: all. */
const CARRY_LOOKBACKS_SECONDS = [86_400, 30 * 86_400, null];

/**
 * The last price before `start`. Searched in widening windows rather than the whole history before
 * `start` (≈ 100 ms a request at 2M points), since the last day nearly always holds it.
 */
async function carriedPrice(
  ch: ClickHouseClient,
  table: string,
  params: { asset: string; kind: string; start: number },
): Promise<number | undefined> {
  for (const lookback of CARRY_LOOKBACKS_SECONDS) {
    const [found] = await rows<{ p: number }>(
      ch,
      `SELECT price AS p FROM ${table} FINAL
        WHERE asset_id = {asset:String} AND kind = {kind:String} AND ts < toDateTime64({start:Int64}, 3, 'UTC')
          ${lookback === null ? '' : `AND ts >= toDateTime64({start:Int64} - ${lookback}, 3, 'UTC')`}
        ORDER BY ts DESC, seq DESC, length(ref) DESC, ref DESC LIMIT 1`,
      params,
    );
    if (found !== undefined) return found.p;
  }
  return undefined;
}

export async function priceHistory(
  ch: ClickHouseClient,
  assetId: string,
  options: PriceHistoryOptions = {},
): Promise<PricePoint[]> {
  const window = resolveWindow(options);
  const kind = options.source ?? 'mid';
  const table = HISTORY_TABLES.pricePoints;
  let start = window.start;
  if (start === null) {
    const [first] = await rows<{ first: string; n: string }>(
      ch,
      `SELECT toUnixTimestamp(min(ts)) AS first, count() AS n FROM ${table} WHERE asset_id = {asset:String} AND kind = {kind:String}`,
      { asset: assetId, kind },
    );
    if (first === undefined || Number(first.n) === 0) return [];
    start = Number(first.first);
  }
  if (start > window.end) return [];
  const step = fitStep(start, window.end, window.step);
  const params = { asset: assetId, kind, start, end: window.end, step };
  const [carried, buckets] = await Promise.all([
    carriedPrice(ch, table, params),
    rows<{ t: string; p: number }>(
      ch,
      `SELECT intDiv(toUnixTimestamp(ts), {step:UInt32}) * {step:UInt32} AS t, argMax(price, (ts, seq, length(ref), ref)) AS p
         FROM ${table} FINAL
        WHERE asset_id = {asset:String} AND kind = {kind:String}
          AND ts >= toDateTime64({start:Int64}, 3, 'UTC') AND ts < toDateTime64({end:Int64} + 1, 3, 'UTC')
        GROUP BY t ORDER BY t`,
      params,
    ),
  ]);
  const byBucket = new Map(buckets.map((b) => [Number(b.t), b.p]));
  const points: PricePoint[] = [];
  let price: number | undefined = carried;
  for (let t = Math.floor(start / step) * step; t <= window.end; t += step) {
    price = byBucket.get(t) ?? price;
    if (price !== undefined) points.push({ t, p: price });
  }
  return points;
}

/** POST /batch-prices-history: `{history: {tokenId: points}}` for at most 20 tokens. */
export async function batchPriceHistory(
  ch: ClickHouseClient,
  assetIds: readonly string[],
  options: PriceHistoryOptions = {},
): Promise<{ history: Record<string, PricePoint[]> }> {
  if (assetIds.length > MAX_BATCH_PRICE_HISTORY_MARKETS) {
    throw new PriceHistoryError(
      `too many markets: ${assetIds.length}, max allowed: ${MAX_BATCH_PRICE_HISTORY_MARKETS}`,
    );
  }
  const now = options.now ?? Math.trunc(Date.now() / 1000);
  const unique = [...new Set(assetIds)];
  const series = await Promise.all(unique.map((asset) => priceHistory(ch, asset, { ...options, now })));
  return { history: Object.fromEntries(unique.map((asset, i) => [asset, series[i]!])) };
}

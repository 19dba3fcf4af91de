// The ledger's and history's read side on the front end: the caller's trades (level 2), builder
// trades, a market's recent trades, and price history — from Postgres and ClickHouse through
// @pmx/ledger.

import type { ClickHouseClient } from '@clickhouse/client';
import { BYTES32_HEX } from '@pmx/codec';
import type { Sql } from '@pmx/db';
import { HttpError, type Hook, type RequestContext, type Route } from '@pmx/http';
import {
  batchPriceHistory,
  builderTrades,
  buildersOf,
  isPriceInterval,
  listTrades,
  MAX_BATCH_PRICE_HISTORY_MARKETS,
  priceHistory,
  PriceHistoryError,
  recentTrades,
  type PriceHistoryOptions,
} from '@pmx/ledger';
import type { ApiKeyLocals } from '@pmx/auth';
import { CURSOR_END, cursorOffset, encodeCursor } from './token-param.ts';
import type { MatchedTrades } from '../gateway/matched-trades.ts';

const PAGE = 100;

function seconds(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d{1,12}$/.test(value)) throw new HttpError(400, `${name} must be a Unix timestamp in seconds`);
  return Number(value);
}

/** A query filter; control characters (a NUL, which Postgres text cannot hold) are refused. */
function text(ctx: RequestContext<any>, name: string): string | undefined {
  const value = ctx.query.get(name);
  if (value === null || value === '') return undefined;
  if (/[\x00-\x1f\x7f]/.test(value)) throw new HttpError(400, `${name} must not contain control characters`);
  return value;
}

/** Largest fidelity, in minutes: ten years (the bucket step must stay a 32-bit count of seconds). */
const MAX_FIDELITY = 10 * 365 * 24 * 60;

function historyOptions(raw: {
  startTs?: unknown;
  endTs?: unknown;
  interval?: unknown;
  fidelity?: unknown;
}): PriceHistoryOptions {
  const number = (value: unknown, name: string): number | undefined => {
    if (value === undefined || value === null || value === '') return undefined;
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : NaN;
    // A JSON number has the string form's bound too (12 digits).
    if (!Number.isSafeInteger(n) || n < 0 || n > 999_999_999_999)
      throw new HttpError(400, `${name} must be a non-negative integer of at most 12 digits`);
    return n;
  };
  if (raw.interval !== undefined && raw.interval !== '' && !isPriceInterval(raw.interval))
    throw new HttpError(400, 'interval must be one of 1m, 1w, 1d, 6h, 1h, max');
  const fidelity = number(raw.fidelity, 'fidelity');
  if (fidelity !== undefined && (fidelity < 1 || fidelity > MAX_FIDELITY))
    throw new HttpError(400, `fidelity must be from 1 to ${MAX_FIDELITY} minutes`);
  return {
    startTs: number(raw.startTs, 'startTs'),
    endTs: number(raw.endTs, 'endTs'),
    interval: raw.interval === '' ? undefined : (raw.interval as PriceHistoryOptions['interval']),
    fidelity,
  };
}

/**
 * Price history is per outcome token. A condition id would only ever find nothing (an unknown
 * token gets an empty history, as from the real service), so it is refused with what to send.
 */
function tokenIdsOnly(ids: readonly string[]): void {
  const condition = ids.find((id) => BYTES32_HEX.test(id)); // a condition id, as token ids are decimal
  if (condition !== undefined)
    throw new HttpError(
      400,
      `${condition} is a condition id: price history is per outcome token, so send the market's token ids (clobTokenIds)`,
    );
}

export function tradeRoutes(
  sql: Sql,
  ch: ClickHouseClient | undefined,
  auth: Hook<ApiKeyLocals>,
  proxiesOf: (signer: string) => readonly { proxy: string; from: number; until: number }[],
  /** Trades the core matched that the ledger does not hold yet: on the first page, MATCHED. */
  matched?: MatchedTrades,
): Route<ApiKeyLocals>[] {
  const history = (): ClickHouseClient => {
    if (ch === undefined) throw new HttpError(503, 'price history is not served by this front end (PMX_HISTORY=false)');
    return ch;
  };
  const page = (offset: number, count: number, nextOffset: number | null) => ({
    next_cursor: nextOffset === null ? CURSOR_END : encodeCursor(nextOffset),
    limit: PAGE,
    count,
    offset,
  });
  /**
   * Without a code, the builder is the caller: the codes its orders carried, once level-2 headers
   * authenticate it (a request without them has no builder: no trades).
   */
  const ownBuilders = async (ctx: RequestContext<ApiKeyLocals>): Promise<string[]> => {
    if (ctx.header('SVC_API_KEY') === undefined) return [];
    await auth(ctx);
    return buildersOf(sql, ctx.locals.apiKey!.address);
  };
  return [
    {
      method: 'GET',
      path: '/data/trades',
      options: { before: [auth] },
      handler: async (ctx) => {
        const offset = cursorOffset(ctx.query.get('next_cursor'));
        if (offset < 0) return { body: { data: [], next_cursor: CURSOR_END, limit: PAGE, count: 0 } };
        const address = ctx.locals.apiKey!.address;
        const proxies = proxiesOf(address);
        const filters = {
          id: text(ctx, 'id'),
          taker: text(ctx, 'taker'),
          maker: text(ctx, 'maker'),
          market: text(ctx, 'market'),
          // What the official client's getTrades sends besides the contract's taker / maker.
          makerAddress: text(ctx, 'maker_address'),
          assetId: text(ctx, 'asset_id'),
          before: seconds(ctx.query.get('before'), 'before'),
          after: seconds(ctx.query.get('after'), 'after'),
        };
        const result = await listTrades(sql, { ...filters, address, proxies, offset, limit: PAGE });
        // Matched in the core, not in the ledger yet: newest, so first.
        const held = new Set(result.data.map((trade) => trade.id));
        const fresh =
          offset > 0 || matched === undefined
            ? []
            : matched.list({ ...filters, address, proxies }).filter((trade) => !held.has(trade.id));
        const { next_cursor, limit, count } = page(offset, result.count, result.nextOffset);
        return { body: { data: [...fresh, ...result.data], next_cursor, limit, count: count + fresh.length } };
      },
    },
    {
      method: 'GET',
      path: '/builder/trades',
      handler: async (ctx) => {
        // The official client's getBuilderTrades sends it as builder_code.
        const code = text(ctx, 'builder') ?? text(ctx, 'builder_code');
        if (code !== undefined && !BYTES32_HEX.test(code))
          throw new HttpError(400, 'builder or builder_code must be a builder code: 0x and 64 hex digits');
        const builders = code !== undefined ? [code] : await ownBuilders(ctx);
        const offset = cursorOffset(ctx.query.get('next_cursor'));
        if (offset < 0 || builders.length === 0) return { body: [] };
        return {
          body: await builderTrades(sql, {
            builder: builders,
            id: text(ctx, 'id'),
            makerAddress: text(ctx, 'maker_address'),
            market: text(ctx, 'market'),
            assetId: text(ctx, 'asset_id'),
            before: seconds(ctx.query.get('before'), 'before'),
            after: seconds(ctx.query.get('after'), 'after'),
            offset,
            limit: PAGE,
          }),
        };
      },
    },
    {
      method: 'GET',
      path: '/trades',
      handler: async (ctx) => {
        const market = text(ctx, 'market');
        if (market === undefined) throw new HttpError(400, 'market (a condition id) is required');
        const limit = ctx.query.get('limit');
        if (limit !== null && !/^\d{1,100}$/.test(limit))
          throw new HttpError(
            400,
            'limit must be a whole number of at most 100 digits (1 to 1000 trades are answered; more is taken as 1000)',
          );
        return {
          body: await recentTrades(history(), {
            market,
            assetId: text(ctx, 'asset_id'),
            before: seconds(ctx.query.get('before'), 'before'),
            limit: limit === null ? undefined : Math.min(Number(limit), 1000),
          }),
        };
      },
    },
    {
      method: 'GET',
      path: '/prices-history',
      handler: async (ctx) => {
        const market = text(ctx, 'market');
        if (market === undefined) throw new HttpError(400, 'market (a token id) is required');
        tokenIdsOnly([market]);
        const options = historyOptions({
          startTs: ctx.query.get('startTs') ?? undefined,
          endTs: ctx.query.get('endTs') ?? undefined,
          interval: ctx.query.get('interval') ?? undefined,
          fidelity: ctx.query.get('fidelity') ?? undefined,
        });
        return { body: { history: await priceHistory(history(), market, options) } };
      },
    },
    {
      method: 'POST',
      path: '/batch-prices-history',
      handler: async (ctx) => {
        const body = ctx.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw new HttpError(400, 'the body must be {"markets": [token ids], …}');
        const { markets, start_ts, end_ts, interval, fidelity, ...rest } = body as Record<string, unknown>;
        if (Object.keys(rest).length > 0) throw new HttpError(400, `unknown field ${Object.keys(rest)[0]}`);
        if (!Array.isArray(markets) || markets.length === 0 || markets.some((m) => typeof m !== 'string'))
          throw new HttpError(400, 'markets must be a non-empty array of token ids');
        tokenIdsOnly(markets as string[]);
        // Refused as the request's fault even where history is not served (a 503 would invite a retry).
        if (markets.length > MAX_BATCH_PRICE_HISTORY_MARKETS)
          throw new HttpError(
            400,
            `too many markets: ${markets.length}, max allowed: ${MAX_BATCH_PRICE_HISTORY_MARKETS}`,
          );
        const options = historyOptions({ startTs: start_ts, endTs: end_ts, interval, fidelity });
        try {
          return { body: await batchPriceHistory(history(), markets as string[], options) };
        } catch (error) {
          if (error instanceof PriceHistoryError) throw new HttpError(400, error.message);
          throw error;
        }
      },
    },
  ];
}

// Looking up the market and token a request names, with the errors a client can act on.

import { HttpError, type RequestContext } from '@pmx/http';
import type { TokenIndex } from '@pmx/matching';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';

export interface TokenRef {
  market: MarketRecord;
  token: TokenIndex;
  tokenId: string;
}

export function tokenRef(markets: MarketRegistry, tokenId: unknown): TokenRef {
  if (tokenId === undefined || tokenId === null || tokenId === '') throw new HttpError(400, 'token_id is required');
  if (typeof tokenId !== 'string') throw new HttpError(400, 'token_id must be a string');
  const found = markets.byTokenId(tokenId);
  if (found === undefined) throw new HttpError(404, 'No orderbook exists for the requested token id');
  return { ...found, tokenId };
}

export function queryToken(ctx: RequestContext<any>, markets: MarketRegistry): TokenRef {
  return tokenRef(markets, ctx.query.get('token_id') ?? undefined);
}

/** The body of POST /books and /prices: an array of {token_id} objects, at most `max`. */
export function tokenList(ctx: RequestContext<any>, max: number): unknown[] {
  const body = ctx.json();
  if (!Array.isArray(body)) throw new HttpError(400, 'the body must be an array of {token_id}');
  if (body.length > max) throw new HttpError(400, `too many tokens: ${body.length}, max allowed: ${max}`);
  return body.map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new HttpError(400, 'each item must be an object with token_id');
    return (item as Record<string, unknown>).token_id;
  });
}

/** Cursor lists: next_cursor is base64 of the decimal offset; "MA==" starts, "LTE=" ends. */
export const CURSOR_START = 'MA==';
export const CURSOR_END = 'LTE=';

/** A cursor's number: 0 to start, -1 past the end; `digits` bounds it (any larger is refused). */
function decodeCursor(cursor: string | null, digits: number): number {
  if (cursor === null || cursor === '' || cursor === CURSOR_START) return 0;
  if (cursor === CURSOR_END) return -1;
  const decoded = Buffer.from(cursor, 'base64').toString('utf8');
  if (!/^\d+$/.test(decoded) || decoded.length > digits || !Number.isSafeInteger(Number(decoded)))
    throw new HttpError(400, 'invalid next_cursor');
  return Number(decoded);
}

export function encodeCursor(n: number): string {
  return Buffer.from(String(n)).toString('base64');
}

export function cursorOffset(cursor: string | null): number {
  return decodeCursor(cursor, 9);
}

/**
 * A cursor naming the last item seen by a sequence number rather than an offset (up to 2^53): the
 * next page starts after it, so items that leave the list before it do not shift the next page.
 */
export function cursorAfter(cursor: string | null): number {
  return decodeCursor(cursor, 16);
}

/** One page of items ordered by `seq`, after the cursor's sequence number, in the contract's envelope. */
export function seqCursorPage<T extends { seq: number }>(
  items: readonly T[],
  cursor: string | null,
  pageSize: number,
): { data: T[]; next_cursor: string; limit: number; count: number } {
  const after = cursorAfter(cursor);
  const rest = after < 0 ? [] : items.filter((item) => item.seq > after);
  const data = rest.slice(0, pageSize);
  const next = rest.length > pageSize ? encodeCursor(data[data.length - 1]!.seq) : CURSOR_END;
  return { data, next_cursor: next, limit: pageSize, count: data.length };
}

export function nextCursor(offset: number, pageSize: number, total: number): string {
  const next = offset + pageSize;
  return next >= total ? CURSOR_END : encodeCursor(next);
}

/** One page of a cursor list, in the contract's envelope. */
export function cursorPage<T>(
  items: readonly T[],
  cursor: string | null,
  pageSize: number,
): { data: T[]; next_cursor: string; limit: number; count: number } {
  const offset = cursorOffset(cursor);
  const data = offset < 0 ? [] : items.slice(offset, offset + pageSize);
  return {
    data,
    next_cursor: offset < 0 ? CURSOR_END : nextCursor(offset, pageSize, items.length),
    limit: pageSize,
    count: data.length,
  };
}

// The front end's read model of every book: the levels each shard reports after a batch,
// served as the contract's Book (bids ascending, asks descending, best last) in either token's
// terms, with the SHA-1 hash a client can check (docs/reference/clob.md). Reads never reach the
// shards or a database.

import { createHash } from 'node:crypto';
import { formatHalfTicks, formatPrice, formatUnits } from '@pmx/codec';
import type { TokenIndex } from '@pmx/matching';
import type { MarketRecord } from '../markets/market-registry.ts';
import type { BookLevels } from '@pmx/events';

export interface WireLevel {
  price: string;
  size: string;
}

export interface Book {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  bids: WireLevel[];
  asks: WireLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

interface Entry {
  levels: BookLevels;
  updatedAt: number;
  views: [Book | null, Book | null];
  /** The views serialised: GET /book sends these bytes as they are, once per book change. */
  json: [string | null, string | null];
}

const EMPTY: BookLevels = { market: '', bids: [], asks: [], lastTrade: 0 };

function freshEntry(levels: BookLevels, updatedAt: number): Entry {
  return { levels, updatedAt, views: [null, null], json: [null, null] };
}

export class BookCache {
  private readonly entries = new Map<string, Entry>();

  clear(): void {
    this.entries.clear();
  }

  update(levels: BookLevels, at: number): void {
    this.entries.set(levels.market, freshEntry(levels, at));
  }

  /** A market's levels as its shard last reported them, if it did. */
  levels(market: string): BookLevels | undefined {
    return this.entries.get(market)?.levels;
  }

  private entry(market: MarketRecord): Entry {
    let entry = this.entries.get(market.conditionId);
    if (entry === undefined) {
      entry = freshEntry({ ...EMPTY, market: market.conditionId }, Date.parse(market.createdAt));
      this.entries.set(market.conditionId, entry);
    }
    return entry;
  }

  /** Best bid and ask in the token's ticks, null when that side is empty. */
  quote(market: MarketRecord, token: TokenIndex): { bid: number | null; ask: number | null } {
    const { levels } = this.entry(market);
    const n = market.ticksPerUnit;
    const firstBid = levels.bids[0]?.[0] ?? null;
    const firstAsk = levels.asks[0]?.[0] ?? null;
    if (token === 0) return { bid: firstBid, ask: firstAsk };
    return { bid: firstAsk === null ? null : n - firstAsk, ask: firstBid === null ? null : n - firstBid };
  }

  midpoint(market: MarketRecord, token: TokenIndex): string | null {
    const { bid, ask } = this.quote(market, token);
    return bid === null || ask === null ? null : formatHalfTicks(bid + ask, market.ticksPerUnit);
  }

  spread(market: MarketRecord): string | null {
    const { bid, ask } = this.quote(market, 0);
    return bid === null || ask === null ? null : formatPrice(ask - bid, market.ticksPerUnit);
  }

  lastTradePrice(market: MarketRecord, token: TokenIndex): string | null {
    const last = this.entry(market).levels.lastTrade;
    if (last === 0) return null;
    return formatPrice(token === 0 ? last : market.ticksPerUnit - last, market.ticksPerUnit);
  }

  /** The book as JSON, serialised once per change of the book. */
  bookJson(market: MarketRecord, token: TokenIndex): string {
    const entry = this.entry(market);
    return (entry.json[token] ??= JSON.stringify(this.book(market, token)));
  }

  book(market: MarketRecord, token: TokenIndex): Book {
    const entry = this.entry(market);
    const cached = entry.views[token];
    if (cached !== null) return cached;
    const { levels } = entry;
    const n = market.ticksPerUnit;
    const wire = (rows: [number, number | bigint][], mirror: boolean): WireLevel[] =>
      rows
        .map(([price, size]) => ({ price: formatPrice(mirror ? n - price : price, n), size: formatUnits(size) }))
        .reverse();
    const book: Book = {
      market: market.conditionId,
      asset_id: market.tokens[token],
      timestamp: String(entry.updatedAt),
      hash: '',
      bids: token === 0 ? wire(levels.bids, false) : wire(levels.asks, true),
      asks: token === 0 ? wire(levels.asks, false) : wire(levels.bids, true),
      min_order_size: formatUnits(market.minOrderSize),
      tick_size: market.tickSize,
      neg_risk: market.negRisk,
      last_trade_price: this.lastTradePrice(market, token) ?? '',
    };
    book.hash = bookHash(book);
    entry.views[token] = book;
    return book;
  }
}

/** SHA-1 hex of the compact JSON of the book with `hash: ""`, keys in the contract's order. */
export function bookHash(book: Book): string {
  return createHash('sha1')
    .update(JSON.stringify({ ...book, hash: '' }))
    .digest('hex');
}

// The best bid and ask of each market of one shard, rebuilt from the events alone (accepted
// orders rest, fills shrink them, cancels and expiries remove them), so that ingest can record
// the midpoint whenever a batch changes it without asking the front end. Order counts per price
// level in the first token's ticks are enough: a level is occupied while it holds an order.

import { Side, type TokenIndex } from '@pmx/matching';
import type { ShardEvent } from '@pmx/events';

/** A market's best bid and ask, in the first token's ticks, after a batch moved its midpoint. */
export interface MidpointChange {
  market: string;
  bid: number;
  ask: number;
}

/** An open order as the tracker needs it, in its own token's terms (as stored in `orders`). */
export interface RestingOrder {
  orderId: string;
  market: string;
  token: TokenIndex;
  side: Side;
  price: number;
  remaining: number;
}

interface TrackedOrder {
  book: MarketBook;
  bid: boolean;
  price: number;
  remaining: number;
}

class MarketBook {
  readonly bids: Uint32Array;
  readonly asks: Uint32Array;
  /** 0 when there is no bid. */
  bestBid = 0;
  /** ticksPerUnit when there is no ask. */
  bestAsk: number;

  constructor(readonly ticksPerUnit: number) {
    this.bids = new Uint32Array(ticksPerUnit + 1);
    this.asks = new Uint32Array(ticksPerUnit + 1);
    this.bestAsk = ticksPerUnit;
  }

  add(bid: boolean, price: number): void {
    if (bid) {
      this.bids[price]!++;
      if (price > this.bestBid) this.bestBid = price;
    } else {
      this.asks[price]!++;
      if (price < this.bestAsk) this.bestAsk = price;
    }
  }

  remove(bid: boolean, price: number): void {
    if (bid) {
      if (--this.bids[price]! === 0 && price === this.bestBid) {
        while (this.bestBid > 0 && this.bids[this.bestBid] === 0) this.bestBid--;
      }
    } else if (--this.asks[price]! === 0 && price === this.bestAsk) {
      while (this.bestAsk < this.ticksPerUnit && this.asks[this.bestAsk] === 0) this.bestAsk++;
    }
  }

  /** bid + ask in ticks (the midpoint in half-ticks), or null while a side is empty. */
  midHalfTicks(): number | null {
    return this.bestBid > 0 && this.bestAsk < this.ticksPerUnit ? this.bestBid + this.bestAsk : null;
  }
}

export class BookTracker {
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly books = new Map<string, MarketBook>();
  private readonly lastMid = new Map<string, number>();

  constructor(private readonly ticksPerUnit: (market: string) => number) {}

  /** Starts over from the open orders and last recorded midpoints (bid + ask) in the ledger. */
  reset(open: readonly RestingOrder[], lastMids: ReadonlyMap<string, number>): void {
    this.orders.clear();
    this.books.clear();
    this.lastMid.clear();
    for (const [market, mid] of lastMids) this.lastMid.set(market, mid);
    for (const order of open)
      this.rest(order.orderId, order.market, order.token, order.side, order.price, order.remaining);
  }

  private book(market: string): MarketBook {
    let book = this.books.get(market);
    if (book === undefined) this.books.set(market, (book = new MarketBook(this.ticksPerUnit(market))));
    return book;
  }

  private rest(orderId: string, market: string, token: TokenIndex, side: Side, price: number, remaining: number): void {
    const book = this.book(market);
    // Both tokens share one book in the first token's terms: the second token's BUY at q is an ask at n − q.
    const bid = (side === Side.BUY) === (token === 0);
    const ticks = token === 0 ? price : book.ticksPerUnit - price;
    this.orders.set(orderId, { book, bid, price: ticks, remaining });
    book.add(bid, ticks);
  }

  private shrink(orderId: string, size: number): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    order.remaining -= size;
    if (order.remaining <= 0) this.drop(orderId);
  }

  private drop(orderId: string): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    this.orders.delete(orderId);
    order.book.remove(order.bid, order.price);
  }

  /** Applies a batch and returns the markets whose midpoint it changed (both sides present). */
  apply(events: readonly ShardEvent[]): MidpointChange[] {
    const touched = new Set<string>();
    for (const event of events) {
      touched.add(event.market);
      switch (event.type) {
        case 'accepted':
          this.rest(event.orderId, event.market, event.token, event.side, event.price, event.size);
          break;
        case 'trade':
          this.shrink(event.takerOrderId, event.size);
          for (const fill of event.fills) this.shrink(fill.makerOrderId, fill.size);
          break;
        case 'cancelled':
        case 'expired':
          this.drop(event.orderId);
          break;
      }
    }
    const changes: MidpointChange[] = [];
    for (const market of touched) {
      const book = this.book(market);
      const mid = book.midHalfTicks();
      if (mid === null || this.lastMid.get(market) === mid) continue;
      this.lastMid.set(market, mid);
      changes.push({ market, bid: book.bestBid, ask: book.bestAsk });
    }
    return changes;
  }

  /** Best bid and ask in the first token's ticks (null when empty), for tests and checks. */
  quote(market: string): { bid: number | null; ask: number | null } {
    const book = this.books.get(market);
    if (book === undefined) return { bid: null, ask: null };
    return { bid: book.bestBid > 0 ? book.bestBid : null, ask: book.bestAsk < book.ticksPerUnit ? book.bestAsk : null };
  }

  get openOrderCount(): number {
    return this.orders.size;
  }
}

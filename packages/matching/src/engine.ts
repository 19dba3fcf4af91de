// The matching engine as callers see it: the core's commands plus journaled-command replay,
// snapshot and restore, a state hash, and read views of each book in either token's terms.

import { bestAsk, bestBid, bookHash, bookView, midpointHalfTicks, spread } from './book-views.ts';
import { EngineCore, type OpenOrder } from './engine-core.ts';
import { Fnv64 } from './hash.ts';
import type { BookView, CancelResult, Command, MarketSpec, PlaceResult, TokenIndex } from './types.ts';

export type { OpenOrder } from './engine-core.ts';

export interface EngineSnapshot {
  version: 1;
  seq: number;
  nextOrderId: number;
  markets: { spec: MarketSpec; lastTrade: number }[];
  /** Open orders in time priority within each level. */
  orders: OpenOrder[];
}

export class MatchingEngine extends EngineCore {
  /** Applies a journaled command; the same commands on the same snapshot give the same engine. */
  apply(command: Command): PlaceResult | CancelResult | number[] | number {
    switch (command.type) {
      case 'addMarket':
        return this.addMarket(command.spec);
      case 'place':
        return this.place(command, command.now);
      case 'cancel':
        return this.cancel(command.orderId, command.now, command.reason);
      case 'cancelOwner':
        return this.cancelOwner(command.owner, command.market, command.now);
      case 'expire':
        return this.expire(command.now);
    }
  }

  /** Everything needed to rebuild this engine: counters, markets, open orders in priority order. */
  snapshot(): EngineSnapshot {
    const orders: OpenOrder[] = [];
    this.forEachOrder((slot) => orders.push(this.describe(slot)));
    return {
      version: 1,
      seq: this.seq,
      nextOrderId: this.nextOrderId,
      markets: this.markets.map((state) => ({ spec: { ...state.spec }, lastTrade: state.lastTrade })),
      orders,
    };
  }

  static restore(snapshot: EngineSnapshot): MatchingEngine {
    if (snapshot.version !== 1) throw new Error(`unsupported snapshot version ${snapshot.version}`);
    const engine = new MatchingEngine();
    for (const market of snapshot.markets) {
      const index = engine.addMarket(market.spec);
      engine.markets[index].lastTrade = market.lastTrade;
    }
    for (const order of snapshot.orders) {
      const ticks = engine.markets[order.market].levels.ticks;
      engine.insert(
        order.orderId,
        order.market,
        order.token,
        order.side ^ order.token,
        order.token === 0 ? order.price : ticks - order.price,
        order.orderType,
        order.size,
        order.remaining,
        order.owner,
        order.expiresAt,
        order.acceptedAt,
      );
    }
    engine.seq = snapshot.seq;
    engine.nextOrderId = snapshot.nextOrderId;
    return engine;
  }

  /** A hash of everything that determines future behaviour; equal engines hash equally. */
  stateHash(): string {
    const hash = new Fnv64().addNumber(this.seq).addNumber(this.nextOrderId);
    for (const state of this.markets) {
      hash
        .addString(state.spec.key)
        .addString(state.spec.tickSize)
        .addNumber(state.spec.minSize)
        .addNumber(state.lastTrade);
    }
    const o = this.orders;
    this.forEachOrder((slot) => {
      hash
        .addNumber(o.id[slot])
        .addNumber(o.market[slot])
        .addNumber(o.token[slot])
        .addNumber(o.bookSide[slot])
        .addNumber(o.price[slot])
        .addNumber(o.orderType[slot])
        .addNumber(o.size[slot])
        .addNumber(o.remaining[slot])
        .addNumber(o.owner[slot])
        .addNumber(o.expiresAt[slot])
        .addNumber(o.acceptedAt[slot]);
    });
    return hash.hex();
  }

  /** Aggregated levels best first, prices in the token's ticks, sizes in base units. */
  book(market: number, token: TokenIndex, depth = Infinity): BookView {
    return bookView(this.markets[market].levels, token, depth);
  }

  bestBid(market: number, token: TokenIndex): number | null {
    return bestBid(this.markets[market].levels, token);
  }

  bestAsk(market: number, token: TokenIndex): number | null {
    return bestAsk(this.markets[market].levels, token);
  }

  /** Best bid + best ask in the token's ticks (half-ticks of the midpoint), or null. */
  midpointHalfTicks(market: number, token: TokenIndex): number | null {
    return midpointHalfTicks(this.markets[market].levels, token);
  }

  spread(market: number): number | null {
    return spread(this.markets[market].levels);
  }

  /** Last trade price in the token's ticks, or null before the first trade. */
  lastTradePrice(market: number, token: TokenIndex): number | null {
    const state = this.markets[market];
    if (state.lastTrade === 0) return null;
    return token === 0 ? state.lastTrade : state.levels.ticks - state.lastTrade;
  }

  bookHash(market: number): string {
    return bookHash(this.markets[market].levels);
  }
}

// The front end's state, fed only by shard replies: the book read model, open orders and the
// risk book (balances and reservations by address). One reply is applied whole before any
// caller waiting on it is answered, so a response always sees its own effects.

import { COLLATERAL, RiskBook, settleTrade, type RiskMarket } from '@pmx/risk';
import { BookCache } from './market-data/book-cache.ts';
import type { MarketRecord, MarketRegistry } from './markets/market-registry.ts';
import { OpenOrders } from './orders/open-orders.ts';
import type { ShardMarket, ShardReply } from '@pmx/events';

export { COLLATERAL };

export function riskMarket(market: MarketRecord): RiskMarket {
  return { key: market.conditionId, tokens: market.tokens, ticksPerUnit: market.ticksPerUnit };
}

export function shardMarket(market: MarketRecord): ShardMarket {
  return { key: market.conditionId, tokens: market.tokens, tickSize: market.tickSize, minSize: market.minOrderSize };
}

export class TradingCore {
  readonly risk = new RiskBook();
  readonly books = new BookCache();
  readonly openOrders = new OpenOrders();

  constructor(
    readonly markets: MarketRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  addMarket(market: MarketRecord): void {
    this.risk.addMarket(riskMarket(market));
  }

  applyReply(reply: ShardReply): void {
    const at = this.now();
    for (const levels of reply.books) this.books.update(levels, at);
    for (const event of reply.events) {
      this.openOrders.apply(event);
      if (event.type === 'trade') {
        const market = this.risk.market(event.market);
        if (market === undefined) throw new Error(`trade in unknown market ${event.market}`);
        settleTrade(this.risk, market, event, (orderId, owner) => ({ orderId, address: owner }));
      } else if (event.type === 'cancelled' || event.type === 'expired') {
        this.risk.release(event.orderId);
      }
    }
  }
}

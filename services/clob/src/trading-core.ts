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

/** A shard that is still recovering (ARCHITECTURE §6): the caller answers 425. */
export class ShardNotReadyError extends Error {
  override readonly name = 'ShardNotReadyError';
}

export class TradingCore {
  readonly risk = new RiskBook();
  readonly books = new BookCache();
  readonly openOrders = new OpenOrders();
  private readonly ready = new Set<number>();
  private shardOf: (market: string) => number = () => 0;

  constructor(
    readonly markets: MarketRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  useShards(shardOf: (market: string) => number): void {
    this.shardOf = shardOf;
  }

  markReady(shard: number): void {
    this.ready.add(shard);
  }

  allReady(shards: number): boolean {
    return this.ready.size >= shards;
  }

  isReady(market: string): boolean {
    return this.ready.has(this.shardOf(market));
  }

  /** Throws ShardNotReadyError while the market's shard recovers. */
  assertReady(market: string): void {
    if (!this.isReady(market)) throw new ShardNotReadyError('the market is recovering after a restart; retry shortly');
  }

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

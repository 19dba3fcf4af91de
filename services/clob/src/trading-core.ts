// The front end's state, fed only by shard replies: the book read model, open orders and the
// risk book (balances and reservations by address). One reply is applied whole before any
// caller waiting on it is answered, so a response always sees its own effects.

import { HttpError } from '@pmx/http';
import { COLLATERAL, RiskBook, settleCustody, settleTrade, type RiskMarket } from '@pmx/risk';
import { BookCache } from './market-data/book-cache.ts';
import { applyState, type MarketRecord, type MarketRegistry } from './markets/market-registry.ts';
import { OpenOrders } from './orders/open-orders.ts';
import type { ShardEvent, ShardMarket, ShardReply } from '@pmx/events';

export { COLLATERAL };

export function riskMarket(market: MarketRecord): RiskMarket {
  return { key: market.conditionId, tokens: market.tokens, ticksPerUnit: market.ticksPerUnit };
}

export function shardMarket(market: MarketRecord): ShardMarket {
  return {
    key: market.conditionId,
    tokens: market.tokens,
    tickSize: market.tickSize,
    minSize: market.minOrderSize,
    state: market.state,
    payouts: market.payouts,
  };
}

/**
 * A shard that is still recovering (docs/design/durability.md): 425; or trading halted after a
 * fault, until the process restarts and recovers: 503. An HttpError, so a route lets it through as it is.
 */
export class ShardNotReadyError extends HttpError {
  constructor(message: string, status: 425 | 503 = 425) {
    super(status, message);
  }
}

export class TradingCore {
  readonly risk = new RiskBook();
  readonly books = new BookCache();
  readonly openOrders = new OpenOrders();
  private readonly ready = new Set<number>();
  /** Why trading stopped, once a shard's reply could not be followed (see halt). */
  private haltedBy: string | undefined;
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

  isReady(shard: number): boolean {
    return this.ready.has(shard);
  }

  allReady(shards: number): boolean {
    return this.haltedBy === undefined && this.ready.size >= shards;
  }

  /**
   * Stops all trading: this state no longer matches what the shards did (a reply could not be
   * applied whole). Every market then answers 503 until the process restarts and rebuilds its
   * state from the ledger, which holds every event the shards produced.
   */
  halt(reason: string): void {
    this.haltedBy ??= reason;
  }

  get halted(): string | undefined {
    return this.haltedBy;
  }

  /** Why the market cannot trade now (its shard recovers, or trading halted), or undefined. */
  notReady(market: string): ShardNotReadyError | undefined {
    if (this.haltedBy !== undefined) return this.haltError();
    if (!this.ready.has(this.shardOf(market)))
      return new ShardNotReadyError('the market is recovering after a restart; retry shortly');
    return undefined;
  }

  /** Throws the halt's 503, or a 425 while any of the shards still recovers. */
  assertAllReady(shards: number): void {
    if (this.haltedBy !== undefined) throw this.haltError();
    if (!this.allReady(shards))
      throw new ShardNotReadyError('the exchange is recovering after a restart; retry shortly');
  }

  private haltError(): ShardNotReadyError {
    return new ShardNotReadyError(
      'trading is halted after an internal fault; the exchange restarts and recovers from its ledger',
      503,
    );
  }

  /** Throws notReady's error, if any. */
  assertReady(market: string): void {
    const error = this.notReady(market);
    if (error !== undefined) throw error;
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
        settleTrade(this.risk, this.riskMarket(event), event, (orderId, owner) => ({ orderId, address: owner }));
      } else if (event.type === 'cancelled' || event.type === 'expired') {
        this.risk.release(event.orderId);
      } else if (event.type === 'custody') {
        settleCustody(this.risk, this.riskMarket(event), event);
      } else if (event.type === 'lifecycle') {
        const record = this.markets.get(event.market);
        if (record === undefined) throw new Error(`lifecycle step of unknown market ${event.market}`);
        const at = new Date(event.at).toISOString();
        applyState(
          record,
          event.state,
          event.payouts,
          event.state === 'closed' ? { closedAt: at } : event.state === 'resolved' ? { resolvedAt: at } : {},
        );
        if (event.payouts !== null) this.risk.resolve(event.market, event.payouts);
      }
    }
  }

  private riskMarket(event: ShardEvent): RiskMarket {
    const market = this.risk.market(event.market);
    if (market === undefined) throw new Error(`${event.type} in unknown market ${event.market}`);
    return market;
  }
}

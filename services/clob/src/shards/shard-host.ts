// The engine side of a shard, without threads or I/O: runs a batch of commands against one
// MatchingEngine, translating between external ids/addresses/market keys and the engine's
// integers, and reports results, translated events and the levels of every book it touched.

import { createHash } from 'node:crypto';
import { MatchingEngine, type EngineEvent } from '@pmx/matching';
import { collateralFor, redemptionValue } from '@pmx/risk';
import {
  custodyAllowed,
  isPayouts,
  nextState,
  takesOrders,
  type BookLevels,
  type MarketState,
  type Payouts,
  type ShardBatch,
  type ShardCommand,
  type ShardEvent,
  type ShardReply,
  type ShardResult,
} from '@pmx/events';

/** Where a market is in its life, as this shard has sequenced it. */
interface MarketLife {
  state: MarketState;
  payouts: Payouts | null;
}

export class ShardHost {
  private engine = new MatchingEngine();
  private readonly owners = new Map<string, number>();
  private readonly ownerNames: string[] = [];
  private readonly engineIdOf = new Map<string, number>();
  private readonly externalIdOf = new Map<number, string>();
  private readonly lives = new Map<string, MarketLife>();
  /** Events a command records beside the engine's (lifecycle steps, custody movements). */
  private own: ShardEvent[] = [];

  constructor(readonly shard: number) {}

  handle(batch: ShardBatch): ShardReply {
    const results: ShardResult[] = [];
    const touched = new Set<number>();
    const events: ShardEvent[] = [];
    for (const command of batch.commands) {
      let result: ShardResult;
      try {
        result = this.run(command, batch.now);
      } catch (error) {
        result = { type: 'error', message: error instanceof Error ? error.message : String(error) };
      }
      const emitted = this.engine.takeEvents();
      const own = this.own;
      this.own = [];
      if (result.type === 'error' && emitted.length + own.length > 0) result.partial = true;
      const first = events.length;
      for (const event of own) {
        touched.add(this.marketOf(event.market));
        events.push(event);
      }
      for (const event of emitted) {
        touched.add(event.market);
        const translated = this.translate(event);
        if (translated.type === 'accepted' && command.type === 'place') {
          translated.ownerKey = command.ownerKey;
          translated.builder = command.builder;
          translated.signedAt = command.signedAt;
        }
        events.push(translated);
        if (translated.type === 'trade' && result.type === 'place' && result.ok) {
          result.tradeIds.push(translated.tradeId);
          const ticks = this.engine.ticksPerUnit(event.market);
          for (const fill of translated.fills) result.notional += collateralFor(fill.size, fill.takerPrice, ticks);
        }
        this.forgetClosed(event);
      }
      // A lifecycle step's own events sit before and after the cancels it caused: one sequence.
      if (own.length > 0) {
        const mine = events.splice(first).sort((a, b) => a.seq - b.seq);
        events.push(...mine);
      }
      if (command.type === 'place' && result.type === 'place' && result.ok && result.status !== 'live')
        this.forget(command.orderId);
      results.push(result);
    }
    const books = batch.commands.some((c) => c.type === 'restore')
      ? this.allLevels()
      : [...touched].map((m) => this.levels(m));
    return { results, events, books, seq: this.engine.lastSeq };
  }

  private owner(address: string): number {
    let id = this.owners.get(address);
    if (id === undefined) {
      id = this.ownerNames.push(address) - 1;
      this.owners.set(address, id);
    }
    return id;
  }

  private marketOf(key: string): number {
    const index = this.engine.marketIndex(key);
    if (index === undefined) throw new Error(`market ${key} is not on shard ${this.shard}`);
    return index;
  }

  private run(command: ShardCommand, now: number): ShardResult {
    switch (command.type) {
      case 'market': {
        if (this.engine.marketIndex(command.market.key) === undefined) {
          this.engine.addMarket({
            key: command.market.key,
            tickSize: command.market.tickSize,
            minSize: command.market.minSize,
          });
          this.lives.set(command.market.key, {
            state: command.market.state ?? 'open',
            payouts: command.market.payouts ?? null,
          });
        }
        return { type: 'market', ok: true };
      }
      case 'place': {
        if (this.engineIdOf.has(command.orderId)) return { type: 'place', ok: false, reason: 'duplicate' };
        const state = this.lives.get(command.market)?.state ?? 'open';
        if (!takesOrders(state))
          return { type: 'place', ok: false, reason: state === 'paused' ? 'market-paused' : 'market-closed' };
        const result = this.engine.place(
          {
            market: this.marketOf(command.market),
            token: command.token,
            side: command.side,
            orderType: command.orderType,
            price: command.price,
            size: command.size,
            owner: this.owner(command.owner),
            postOnly: command.postOnly,
            expiresAt: command.expiresAt > 0 ? command.expiresAt : undefined,
          },
          now,
        );
        if (!result.ok) return { type: 'place', ok: false, reason: result.reason };
        this.engineIdOf.set(command.orderId, result.orderId);
        this.externalIdOf.set(result.orderId, command.orderId);
        return {
          type: 'place',
          ok: true,
          status: result.status,
          filled: result.filled,
          notional: 0,
          resting: result.resting,
          tradeIds: [],
        };
      }
      case 'cancel': {
        const id = this.engineIdOf.get(command.orderId);
        const open = id === undefined ? undefined : this.engine.openOrder(id);
        if (open === undefined || this.ownerNames[open.owner] !== command.owner)
          return { type: 'cancel', ok: false, remaining: 0 };
        const result = this.engine.cancel(id!, now, command.reason);
        return { type: 'cancel', ok: result.ok, remaining: result.ok ? result.remaining : 0 };
      }
      case 'cancelOwner': {
        const owner = this.owners.get(command.owner);
        if (owner === undefined) return { type: 'cancelOwner', cancelled: [] };
        const market = command.market === undefined ? undefined : this.engine.marketIndex(command.market);
        if (command.market !== undefined && market === undefined) return { type: 'cancelOwner', cancelled: [] };
        const ids = this.engine.cancelOwner(owner, market, now);
        return { type: 'cancelOwner', cancelled: ids.map((id) => this.externalIdOf.get(id)!) };
      }
      case 'expire':
        return { type: 'expire', expired: this.engine.expire(now) };
      case 'restore':
        return this.restore(command);
      case 'status':
        return {
          type: 'status',
          seq: this.engine.lastSeq,
          openOrders: this.engine.openOrderCount,
          stateHash: this.bookStateHash(),
        };
      case 'lifecycle':
        return this.lifecycle(command, now);
      case 'custody':
        return this.custody(command, now);
    }
  }

  /**
   * An operator's step: pause, resume, close (every resting order cancelled, reason
   * 'market-closed'), resolve (closing first when still open or paused). Refused, it says the
   * market's state; the front end words it.
   */
  private lifecycle(command: Extract<ShardCommand, { type: 'lifecycle' }>, now: number): ShardResult {
    const life = this.lives.get(command.market);
    const market = this.engine.marketIndex(command.market);
    if (life === undefined || market === undefined) return { type: 'lifecycle', ok: false, state: 'unknown' };
    const next = nextState(life.state, command.step);
    if (next === undefined) return { type: 'lifecycle', ok: false, state: life.state };
    if (next === 'resolved' && !isPayouts(command.payouts))
      throw new Error(`resolving ${command.market} needs payouts of a binary market, got ${String(command.payouts)}`);
    this.engine.expire(now); // what was due before the step is not its doing
    let cancelled = 0;
    if (next === 'closed' || (next === 'resolved' && life.state !== 'closed')) {
      this.record(command.market, 'closed', null, now);
      cancelled = this.engine.cancelMarket(market, now).length;
    }
    const payouts = next === 'resolved' ? command.payouts! : null;
    if (next !== 'closed') this.record(command.market, next, payouts, now);
    this.lives.set(command.market, { state: next, payouts });
    return { type: 'lifecycle', ok: true, state: next, cancelled };
  }

  private record(market: string, state: MarketState, payouts: Payouts | null, now: number): void {
    this.own.push({ type: 'lifecycle', seq: this.engine.nextSeq(), at: now, market, state, payouts });
  }

  /** A custody movement, sequenced with the market's trades; its amounts are already held. */
  private custody(command: Extract<ShardCommand, { type: 'custody' }>, now: number): ShardResult {
    const life = this.lives.get(command.market);
    if (life === undefined || this.engine.marketIndex(command.market) === undefined)
      return { type: 'custody', ok: false, state: 'unknown' };
    if (!custodyAllowed(life.state, command.op)) return { type: 'custody', ok: false, state: life.state };
    const { tokens } = command;
    if (!tokens.every((t) => Number.isSafeInteger(t) && t >= 0) || tokens[0] + tokens[1] === 0)
      throw new Error(`custody ${command.id}: amounts must be non-negative integers, not both 0`);
    if (command.op !== 'redeem' && tokens[0] !== tokens[1])
      throw new Error(`custody ${command.id}: a ${command.op} moves as many of each token`);
    const collateral = command.op === 'redeem' ? redemptionValue(tokens, life.payouts!).total : tokens[0];
    this.own.push({
      type: 'custody',
      seq: this.engine.nextSeq(),
      at: now,
      id: command.id,
      market: command.market,
      owner: command.owner,
      op: command.op,
      tokens: [tokens[0], tokens[1]],
      collateral,
      payouts: command.op === 'redeem' ? life.payouts : null,
    });
    return { type: 'custody', ok: true, collateral };
  }

  /**
   * The books' contents in priority order, by external order id, owner, price and remaining —
   * independent of the engine's internal ids, so a restored shard hashes like the one it replaces.
   */
  bookStateHash(): string {
    const snapshot = this.engine.snapshot();
    const hash = createHash('sha256');
    for (const m of snapshot.markets) {
      const life = this.lives.get(m.spec.key);
      hash.update(`${m.spec.key}|${m.lastTrade}|${life?.state}|${life?.payouts?.join(',') ?? ''};`);
    }
    for (const o of snapshot.orders) {
      hash.update(
        `${o.market}|${this.external(o.orderId)}|${this.ownerNames[o.owner]}|${o.token}|${o.side}|${o.price}|${o.size}|${o.remaining}|${o.orderType}|${o.expiresAt};`,
      );
    }
    return hash.digest('hex');
  }

  /** Replaces the books with the ledger's open orders, in their original sequence. */
  private restore(command: Extract<ShardCommand, { type: 'restore' }>): ShardResult {
    const current = this.engine.snapshot();
    if (current.orders.length > 0) throw new Error(`shard ${this.shard} already has open orders`);
    for (const { market, state, payouts } of command.markets ?? []) this.lives.set(market, { state, payouts });
    const lastTrades = new Map(command.lastTrades.map((t) => [t.market, t.ticks]));
    const markets = current.markets.map((m) => ({ ...m, lastTrade: lastTrades.get(m.spec.key) ?? m.lastTrade }));
    const index = new Map(markets.map((m, i) => [m.spec.key, i]));
    this.engineIdOf.clear();
    this.externalIdOf.clear();
    const orders = command.orders.map((order, i) => {
      const market = index.get(order.market);
      if (market === undefined) throw new Error(`restore: market ${order.market} is not on shard ${this.shard}`);
      this.engineIdOf.set(order.orderId, i + 1);
      this.externalIdOf.set(i + 1, order.orderId);
      return {
        orderId: i + 1,
        market,
        token: order.token,
        side: order.side,
        orderType: order.orderType,
        price: order.price,
        size: order.size,
        remaining: order.remaining,
        owner: this.owner(order.owner),
        expiresAt: order.expiresAt,
        acceptedAt: order.acceptedAt,
      };
    });
    this.engine = MatchingEngine.restore({
      version: 1,
      seq: command.seq,
      nextOrderId: orders.length + 1,
      markets,
      orders,
    });
    return { type: 'restore', orders: orders.length, stateHash: this.engine.stateHash() };
  }

  /** Every market's levels, e.g. for the front end's book cache after a restore. */
  allLevels(): BookLevels[] {
    return Array.from({ length: this.engine.marketCount() }, (_, m) => this.levels(m));
  }

  private translate(event: EngineEvent): ShardEvent {
    const market = this.engine.marketKey(event.market);
    switch (event.type) {
      case 'accepted':
        return {
          ...event,
          orderId: this.external(event.orderId),
          market,
          owner: this.ownerNames[event.owner]!,
          ownerKey: '',
          builder: '',
          signedAt: 0,
        };
      case 'trade':
        return {
          type: 'trade',
          seq: event.seq,
          at: event.at,
          tradeId: tradeId(this.shard, event.seq),
          market,
          takerOrderId: this.external(event.takerOrderId),
          takerOwner: this.ownerNames[event.takerOwner]!,
          takerToken: event.takerToken,
          takerSide: event.takerSide,
          size: event.size,
          fills: event.fills.map((f) => ({
            ...f,
            makerOrderId: this.external(f.makerOrderId),
            makerOwner: this.ownerNames[f.makerOwner]!,
          })),
        };
      case 'cancelled':
      case 'expired':
        return { ...event, orderId: this.external(event.orderId), market, owner: this.ownerNames[event.owner]! };
    }
  }

  private external(engineId: number): string {
    const external = this.externalIdOf.get(engineId);
    if (external === undefined) throw new Error(`engine order ${engineId} has no external id`);
    return external;
  }

  /** Ids stay mapped while an order rests; a closed resting order is forgotten. */
  private forgetClosed(event: EngineEvent): void {
    if (event.type === 'cancelled' || event.type === 'expired') {
      this.forgetEngineId(event.orderId);
    } else if (event.type === 'trade') {
      for (const fill of event.fills)
        if (this.engine.openOrder(fill.makerOrderId) === undefined) this.forgetEngineId(fill.makerOrderId);
    }
  }

  private forgetEngineId(engineId: number): void {
    const external = this.externalIdOf.get(engineId);
    if (external !== undefined) this.forget(external);
  }

  private forget(orderId: string): void {
    const engineId = this.engineIdOf.get(orderId);
    if (engineId === undefined) return;
    this.engineIdOf.delete(orderId);
    this.externalIdOf.delete(engineId);
  }

  private levels(market: number): BookLevels {
    const view = this.engine.book(market, 0);
    return {
      market: this.engine.marketKey(market),
      bids: view.bids.map((l) => [l.price, l.size]),
      asks: view.asks.map((l) => [l.price, l.size]),
      lastTrade: this.engine.lastTradePrice(market, 0) ?? 0,
    };
  }
}

export function tradeId(shard: number, seq: number): string {
  return `${shard}-${seq}`;
}

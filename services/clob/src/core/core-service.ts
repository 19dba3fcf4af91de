// The core's one entry point (docs/design/cluster.md): every command a gateway sends is executed
// here and answered with a result code; every batch a shard answers is published to the gateways
// (the book levels it moved and the trades it matched). Balances, reservations, open orders and
// the shards live behind it, in this process only.

import type { ShardReply } from '@pmx/events';
import { logger } from '@pmx/config';
import type { BookLevels } from '@pmx/events';
import { COLLATERAL } from '@pmx/risk';
import type { Custody } from '../risk/custody.ts';
import type {
  CancelAnswer,
  CustodyAnswer,
  CoreCommand,
  CoreReply,
  CoreSnapshot,
  CoreStatus,
  MatchedTrade,
  Publication,
} from '../link/core-protocol.ts';
import { ResultCode, type Refusal } from '../link/result-codes.ts';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';
import type { ProxyWallets } from '../markets/proxy-wallets.ts';
import type { Heartbeats } from '../orders/heartbeats.ts';
import type { KnownOrders } from '../orders/known-orders.ts';
import type { OrderLatency } from '../orders/order-latency.ts';
import type { ShardSet } from '../shards/shard-set.ts';
import type { TradingCore } from '../trading-core.ts';
import { placeOrder } from './place-order.ts';
import { refusalOf } from './order-steps/refusals.ts';

const log = logger('clob.core');

export interface CoreServiceDeps {
  core: TradingCore;
  shards: ShardSet;
  known: KnownOrders;
  proxies: ProxyWallets;
  heartbeats: Heartbeats;
  latency: OrderLatency;
  markets: MarketRegistry;
  custody: Custody;
}

const NOT_FOUND: Refusal = { code: ResultCode.NOT_FOUND };

export class CoreService {
  /** API keys being deleted (or deleted): their orders are refused. */
  private readonly closedKeys = new Set<string>();
  private readonly listeners = new Set<(publication: Publication) => void>();

  constructor(private readonly deps: CoreServiceDeps) {}

  get latency(): OrderLatency {
    return this.deps.latency;
  }

  subscribe(listener: (publication: Publication) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(publication: Publication): void {
    for (const listener of this.listeners) {
      try {
        listener(publication);
      } catch (error) {
        log.error({ err: error }, 'a publication listener threw');
      }
    }
  }

  status(): CoreStatus {
    const { core, shards } = this.deps;
    const ready = Array.from({ length: shards.count }, (_, shard) => shard).filter((shard) => core.isReady(shard));
    return core.halted === undefined
      ? { shards: shards.count, ready }
      : { shards: shards.count, ready, halted: core.halted };
  }

  publishStatus(): void {
    this.publish({ type: 'status', status: this.status() });
  }

  snapshot(): CoreSnapshot {
    const books: BookLevels[] = [];
    for (const market of this.deps.markets.list()) {
      const levels = this.deps.core.books.levels(market.conditionId);
      if (levels !== undefined) books.push(levels);
    }
    return { status: this.status(), markets: [...this.deps.markets.list()], books };
  }

  /** After the trading core applied a shard's reply: what moved, to every gateway. */
  publishReply(shard: number, reply: ShardReply): void {
    if (reply.books.length === 0 && reply.events.length === 0) return;
    const { openOrders } = this.deps.core;
    const keyOf = (orderId: string) => (openOrders.get(orderId) ?? openOrders.recentlyClosed(orderId))?.owner ?? '';
    const trades: MatchedTrade[] = [];
    for (const event of reply.events) {
      if (event.type !== 'trade') continue;
      trades.push({
        event,
        shard,
        takerKey: keyOf(event.takerOrderId),
        makerKeys: event.fills.map((fill) => keyOf(fill.makerOrderId)),
      });
    }
    this.publish({ type: 'books', at: Date.now(), books: reply.books, trades });
    // A lifecycle step changed a market's state (the trading core applied it to the record).
    for (const event of reply.events) {
      if (event.type !== 'lifecycle') continue;
      const market = this.deps.markets.get(event.market);
      if (market !== undefined) this.publishMarket(market);
    }
  }

  publishMarket(market: MarketRecord): void {
    this.publish({ type: 'market', market });
  }

  async execute(command: CoreCommand): Promise<CoreReply> {
    try {
      return await this.run(command);
    } catch (error) {
      return refusalOf(error, `the core command ${command.type}`);
    }
  }

  private async run(command: CoreCommand): Promise<CoreReply> {
    const { core } = this.deps;
    switch (command.type) {
      case 'place':
        return placeOrder(command.order, { ...this.deps, closedKeys: this.closedKeys });
      case 'cancel':
        return this.cancel(command.apiKey, command.orderIds);
      case 'cancelAll':
        return this.cancelAll(command.apiKey, command);
      case 'openOrders': {
        const notReady = this.allReady();
        return notReady ?? { code: ResultCode.OK, orders: core.openOrders.ofOwner(command.apiKey) };
      }
      case 'order': {
        const notReady = this.allReady();
        if (notReady !== undefined) return notReady;
        const open = core.openOrders.get(command.orderId);
        if (open !== undefined && open.owner === command.apiKey)
          return { code: ResultCode.OK, order: { ...open, status: 'LIVE' } };
        const closed = core.openOrders.recentlyClosed(command.orderId);
        return { code: ResultCode.OK, order: closed !== undefined && closed.owner === command.apiKey ? closed : null };
      }
      case 'balance': {
        const notReady = this.allReady();
        return notReady ?? { code: ResultCode.OK, balance: core.risk.balance(command.address, command.asset) };
      }
      case 'heartbeat': {
        const beat = await this.deps.heartbeats.beat(command.apiKey, command.heartbeatId);
        if (beat.ok) return { code: ResultCode.OK, heartbeatId: beat.heartbeatId };
        return { code: beat.unavailable ? ResultCode.UNAVAILABLE : ResultCode.HEARTBEAT_REFUSED, detail: beat.error };
      }
      case 'closeKey':
        return this.closeKey(command.apiKey);
      case 'keyDeleted':
        this.deps.heartbeats.disarm(command.apiKey);
        this.publish({ type: 'keyDeleted', apiKey: command.apiKey });
        return { code: ResultCode.OK };
      case 'custody':
        return this.custody(command);
      case 'reopenKey':
        this.closedKeys.delete(command.apiKey);
        return { code: ResultCode.OK };
    }
  }

  private async custody(command: Extract<CoreCommand, { type: 'custody' }>): Promise<CustodyAnswer | Refusal> {
    const market = this.deps.markets.get(command.market);
    if (market === undefined) return { code: ResultCode.NOT_FOUND, detail: 'market not found' };
    const { custody } = this.deps;
    const moved =
      command.op === 'split'
        ? await custody.split(command.address, market, command.amount)
        : command.op === 'merge'
          ? await custody.merge(command.address, market, command.amount)
          : await custody.redeem(command.address, market);
    const { risk } = this.deps.core;
    const balances = Object.fromEntries(
      [COLLATERAL, ...market.tokens].map((asset) => [asset, risk.balance(command.address, asset)]),
    );
    return { code: ResultCode.OK, collateral: moved.collateral, tokens: moved.tokens, balances };
  }

  /** A refusal while any shard recovers (an API key's orders are not all known yet) or once halted. */
  private allReady(): Refusal | undefined {
    try {
      this.deps.core.assertAllReady(this.deps.shards.count);
      return undefined;
    } catch (error) {
      return refusalOf(error, 'a readiness check');
    }
  }

  /** Cancels the given orders of an API key; others are reported, not touched. */
  async cancel(apiKey: string, orderIds: readonly string[]): Promise<CancelAnswer | Refusal> {
    const notReady = this.allReady();
    if (notReady !== undefined) return notReady;
    const { core, shards } = this.deps;
    // A null-prototype map, so that an id such as "__proto__" is reported like any other.
    const answer: CancelAnswer = { code: ResultCode.OK, canceled: [], notCanceled: Object.create(null) };
    await Promise.all(
      [...new Set(orderIds)].map(async (orderId) => {
        // An order still on its way through its shard is cancelled there too: the shard runs the
        // cancel after the place, so a cancel-all never misses an order it was sent after.
        const order = core.openOrders.get(orderId) ?? core.openOrders.intent(orderId);
        if (order === undefined || order.owner !== apiKey) {
          answer.notCanceled[orderId] = NOT_FOUND;
          return;
        }
        const notReady = core.notReady(order.market);
        if (notReady !== undefined) {
          answer.notCanceled[orderId] = refusalOf(notReady, 'cancel');
          return;
        }
        try {
          const result = await shards.submit(shards.shardOf(order.market), {
            type: 'cancel',
            orderId,
            owner: order.maker,
          });
          if (result.type === 'cancel' && result.ok) answer.canceled.push(orderId);
          else answer.notCanceled[orderId] = NOT_FOUND;
        } catch (error) {
          // Each id is answered whatever happens to another's (a key's deletion reports what is left).
          answer.notCanceled[orderId] = refusalOf(error, `the cancel of ${orderId}`);
        }
      }),
    );
    return answer;
  }

  /** Cancels every open order of an API key, optionally only in one market or one token. */
  cancelAll(apiKey: string, filter: { market?: string; assetId?: string } = {}): Promise<CancelAnswer | Refusal> {
    const { openOrders } = this.deps.core;
    const wanted = (o: { market: string; assetId: string }) =>
      (filter.market === undefined || o.market === filter.market) &&
      (filter.assetId === undefined || o.assetId === filter.assetId);
    const open = openOrders
      .ofOwner(apiKey)
      .filter(wanted)
      .map((o) => o.orderId);
    const inFlight = openOrders
      .intentsOf(apiKey)
      .filter(([, intent]) => wanted(intent))
      .map(([orderId]) => orderId);
    return this.cancel(apiKey, [...open, ...inFlight]);
  }

  /** Cancels every open order of an API key, logged (deleted, or silent past its heartbeat). */
  async cancelKeyOrders(apiKey: string, why: string): Promise<void> {
    const answer = await this.cancelAll(apiKey);
    if (answer.code !== ResultCode.OK) {
      log.warn(`API key ${apiKey} ${why}: its orders could not be cancelled now (${answer.code})`);
      return;
    }
    const left = Object.keys(answer.notCanceled).length;
    log.info(`API key ${apiKey} ${why}: ${answer.canceled.length} open orders cancelled`);
    if (left > 0)
      log.warn(
        `API key ${apiKey} ${why}: ${left} of its orders could not be cancelled (already closed, or trading halted): ${JSON.stringify(answer.notCanceled)}`,
      );
  }

  private async closeKey(apiKey: string): Promise<CoreReply> {
    const notReady = this.allReady();
    if (notReady !== undefined) return notReady;
    this.closedKeys.add(apiKey);
    await this.cancelKeyOrders(apiKey, 'being deleted');
    const { openOrders } = this.deps.core;
    const left = openOrders.ofOwner(apiKey).length + openOrders.intentsOf(apiKey).length;
    if (left > 0) this.closedKeys.delete(apiKey);
    return { code: ResultCode.OK, left };
  }

  /**
   * Cancels every open order (and every one on its way to its shard) whose maker is `maker`,
   * whichever API key placed it; resolves to how many are still open after.
   */
  async cancelMaker(maker: string): Promise<number> {
    const byKey = new Map<string, string[]>();
    for (const [owner, orderId] of this.ofMaker(maker)) byKey.set(owner, [...(byKey.get(owner) ?? []), orderId]);
    await Promise.all([...byKey].map(([apiKey, ids]) => this.cancel(apiKey, ids)));
    return this.ofMaker(maker).length;
  }

  /** [API key, order id] of the open and in-flight orders whose maker is `maker`. */
  private ofMaker(maker: string): [string, string][] {
    const { openOrders } = this.deps.core;
    const found: [string, string][] = [];
    for (const order of openOrders.all()) if (order.maker === maker) found.push([order.owner, order.orderId]);
    for (const [orderId, intent] of openOrders.inFlight())
      if (intent.maker === maker) found.push([intent.owner, orderId]);
    return found;
  }
}

// Open orders as the front end knows them, built only from shard events: added on `accepted`,
// matched amounts from `trade`, removed when filled, cancelled or expired (and then kept a while
// among the recently closed, for GET /data/order/{id} before ingest has the order in the ledger).
// Serves GET /data/orders and /data/order/{id}, and ownership checks for cancels.

import { OrderType, Side } from '@pmx/matching';
import type { ShardEvent } from '@pmx/events';

/** What the front end shows of an order, open or closed (GET /data/orders, /data/order/{id}). */
export interface OrderRecord {
  orderId: string;
  /** The API key that placed it (the order's `owner`). */
  owner: string;
  /** Lower-case maker address (whose balance backs it). */
  maker: string;
  market: string;
  token: 0 | 1;
  assetId: string;
  side: Side;
  orderType: OrderType;
  /** Limit in ticks of the order's own token. */
  price: number;
  size: number;
  matched: number;
  /** GTD expiry in ms, 0 otherwise. */
  expiresAt: number;
  createdAt: number;
  tradeIds: string[];
}

export interface OpenOrder extends OrderRecord {
  /** Order in which the front end learnt of it; GET /data/orders pages by it (stable as orders close). */
  seq: number;
}

/**
 * How an order ended, as GET /data/order/{id} names it: `MATCHED` filled in full, `UNMATCHED` an
 * FOK/FAK whose remainder was killed, `CANCELED` cancelled (by its owner, self-trade prevention,
 * a lost balance) or expired. `size_matched` says how much of a closed order filled.
 */
export type ClosedStatus = 'MATCHED' | 'UNMATCHED' | 'CANCELED';

export interface ClosedOrder extends OpenOrder {
  status: ClosedStatus;
}

/** Recently closed orders kept in memory (the oldest go first); older ones are read from the ledger. */
export const RECENTLY_CLOSED = 50_000;

/** What the front end knows of an order before the shard accepts it. */
export interface OrderIntent {
  /** The API key placing it. */
  owner: string;
  /** Lower-case maker address (the shard's owner of the order). */
  maker: string;
  market: string;
  assetId: string;
}

export class OpenOrders {
  private readonly orders = new Map<string, OpenOrder>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly intents = new Map<string, OrderIntent>();
  private readonly closed = new Map<string, ClosedOrder>();
  /**
   * Starts at the process's start time × 1024: a cursor a bot kept from before a restart is then
   * below every sequence of this process, so its next page starts over (repeats, never skips).
   * Good for 1,024 orders per ms of uptime, and below 2^53 until the year 2248.
   */
  private lastSeq = Date.now() * 1024;
  private gtdListener: ((orderId: string, expiresAt: number) => void) | undefined;

  constructor(private readonly keepClosed = RECENTLY_CLOSED) {}

  /** Remembers who placed an order until the shard answers for it. */
  expect(orderId: string, intent: OrderIntent): void {
    this.intents.set(orderId, intent);
  }

  forgetIntent(orderId: string): void {
    this.intents.delete(orderId);
  }

  /** An order handed to its shard and not yet answered for. */
  intent(orderId: string): OrderIntent | undefined {
    return this.intents.get(orderId);
  }

  /** Every order still on its way through its shard. */
  inFlight(): IterableIterator<[string, OrderIntent]> {
    return this.intents.entries();
  }

  /** The orders of an API key still on their way through their shards (few: only those in flight). */
  intentsOf(owner: string): [string, OrderIntent][] {
    return [...this.intents].filter(([, intent]) => intent.owner === owner);
  }

  /** An open order read back from the ledger after a restart. */
  restore(order: {
    orderId: string;
    ownerKey: string;
    owner: string;
    market: string;
    token: 0 | 1;
    assetId: string;
    side: Side;
    orderType: OrderType;
    price: number;
    size: number;
    matched: number;
    expiresAt: number;
    acceptedAt: number;
    tradeIds: string[];
  }): void {
    this.add({
      orderId: order.orderId,
      owner: order.ownerKey,
      maker: order.owner,
      market: order.market,
      token: order.token,
      assetId: order.assetId,
      side: order.side,
      orderType: order.orderType,
      price: order.price,
      size: order.size,
      matched: order.matched,
      expiresAt: order.expiresAt,
      createdAt: order.acceptedAt,
      tradeIds: [...order.tradeIds],
      seq: ++this.lastSeq,
    });
  }

  /** Told of every GTD as it opens (accepted, or restored after a restart), to expire it on time. */
  onGtd(listener: (orderId: string, expiresAt: number) => void): void {
    this.gtdListener = listener;
  }

  private add(order: OpenOrder): void {
    this.orders.set(order.orderId, order);
    let mine = this.byOwner.get(order.owner);
    if (mine === undefined) this.byOwner.set(order.owner, (mine = new Set()));
    mine.add(order.orderId);
    if (order.expiresAt > 0) this.gtdListener?.(order.orderId, order.expiresAt);
  }

  apply(event: ShardEvent): void {
    switch (event.type) {
      case 'accepted': {
        const intent = this.intents.get(event.orderId);
        this.intents.delete(event.orderId);
        this.add({
          orderId: event.orderId,
          owner: intent?.owner ?? event.ownerKey,
          maker: event.owner,
          market: event.market,
          token: event.token,
          assetId: intent?.assetId ?? '',
          side: event.side,
          orderType: event.orderType,
          price: event.price,
          size: event.size,
          matched: 0,
          expiresAt: event.expiresAt,
          createdAt: event.at,
          tradeIds: [],
          seq: ++this.lastSeq,
        });
        break;
      }
      case 'trade':
        this.fill(event.takerOrderId, event.size, event.tradeId);
        for (const fill of event.fills) this.fill(fill.makerOrderId, fill.size, event.tradeId);
        break;
      case 'cancelled':
        this.remove(event.orderId, event.reason === 'unfilled' ? 'UNMATCHED' : 'CANCELED');
        break;
      case 'expired':
        this.remove(event.orderId, 'CANCELED');
        break;
    }
  }

  private fill(orderId: string, size: number, tradeId: string): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    order.matched += size;
    order.tradeIds.push(tradeId);
    if (order.matched >= order.size) this.remove(orderId, 'MATCHED');
  }

  private remove(orderId: string, status: ClosedStatus): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    this.orders.delete(orderId);
    const mine = this.byOwner.get(order.owner);
    mine?.delete(orderId);
    if (mine?.size === 0) this.byOwner.delete(order.owner);
    if (this.keepClosed === 0) return;
    if (this.closed.size >= this.keepClosed) this.closed.delete(this.closed.keys().next().value!);
    this.closed.set(orderId, Object.assign(order, { status }));
  }

  get(orderId: string): OpenOrder | undefined {
    return this.orders.get(orderId);
  }

  /** An order among the last `RECENTLY_CLOSED` to close (memory only: not kept across restarts). */
  recentlyClosed(orderId: string): ClosedOrder | undefined {
    return this.closed.get(orderId);
  }

  /**
   * An owner's open orders in the order the front end learnt of them (`seq`, which the owner's set
   * keeps as its insertion order): a page boundary by `seq` does not move as earlier orders close.
   */
  ofOwner(owner: string): OpenOrder[] {
    const ids = this.byOwner.get(owner);
    if (ids === undefined) return [];
    return [...ids].map((id) => this.orders.get(id)!);
  }

  all(): IterableIterator<OpenOrder> {
    return this.orders.values();
  }

  get size(): number {
    return this.orders.size;
  }
}

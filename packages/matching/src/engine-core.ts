// The matching core: price–time priority over unified binary books, the four order types,
// post-only and self-trade prevention. Pure and deterministic: time comes in with each command,
// business outcomes are returned as values, and every state change is emitted as an event.

import { ExpiryHeap } from './expiry-heap.ts';
import { OwnerIndex } from './owner-index.ts';
import { fillable } from './fill-check.ts';
import { validateOrder } from './order-validation.ts';
import { IdIndex } from './id-index.ts';
import { OrderStore } from './order-store.ts';
import { ASK, BID, PriceLevels } from './price-levels.ts';
import {
  MatchKind,
  OrderType,
  Side,
  TICKS_PER_UNIT,
  type CancelReason,
  type CancelResult,
  type EngineEvent,
  type Fill,
  type MarketSpec,
  type PlaceOrder,
  type PlaceResult,
  type RejectReason,
  type TokenIndex,
} from './types.ts';

const NONE = -1;

export interface MarketState {
  readonly spec: MarketSpec;
  readonly levels: PriceLevels;
  /** Price of the last trade in the first token's ticks, 0 before the first trade. */
  lastTrade: number;
}

/** One open order as the engine holds it, prices in the order's own token's ticks. */
export interface OpenOrder {
  orderId: number;
  market: number;
  token: TokenIndex;
  side: Side;
  orderType: OrderType;
  price: number;
  size: number;
  remaining: number;
  owner: number;
  expiresAt: number;
  acceptedAt: number;
}

export class EngineCore {
  protected readonly markets: MarketState[] = [];
  private readonly marketByKey = new Map<string, number>();
  protected readonly orders = new OrderStore();
  protected readonly slotById = new IdIndex();
  /** Each owner's open orders and their count; owners are dense integers interned by the caller. */
  private readonly owners = new OwnerIndex(this.orders);
  private readonly expiry = new ExpiryHeap();
  /** Open GTD orders: the heap may hold more (entries of orders gone, skipped lazily) but not far more. */
  private liveGtd = 0;

  /** Entries in the expiry heap, stale ones included (diagnostics: it stays near the open GTD count). */
  get expiryEntries(): number {
    return this.expiry.size;
  }
  protected seq = 0;
  protected nextOrderId = 1;
  private events: EngineEvent[] = [];

  /** Registers a market and returns its index (the `market` field of commands). */
  addMarket(spec: MarketSpec): number {
    const ticks = TICKS_PER_UNIT[spec.tickSize];
    if (ticks === undefined) throw new Error(`unsupported tick size ${spec.tickSize}`);
    if (!Number.isSafeInteger(spec.minSize) || spec.minSize < 0)
      throw new Error('minSize must be a non-negative integer');
    if (this.marketByKey.has(spec.key)) throw new Error(`market ${spec.key} already exists`);
    const index = this.markets.length;
    this.markets.push({ spec: { ...spec }, levels: new PriceLevels(ticks), lastTrade: 0 });
    this.marketByKey.set(spec.key, index);
    return index;
  }

  marketIndex(key: string): number | undefined {
    return this.marketByKey.get(key);
  }

  marketKey(market: number): string {
    return this.markets[market].spec.key;
  }

  marketCount(): number {
    return this.markets.length;
  }

  ticksPerUnit(market: number): number {
    return this.markets[market].levels.ticks;
  }

  /** Events produced since the last call, in sequence order. */
  takeEvents(): EngineEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  get lastSeq(): number {
    return this.seq;
  }

  get openOrderCount(): number {
    return this.slotById.size;
  }

  place(order: PlaceOrder, now: number): PlaceResult {
    this.expireDue(now);
    const state = this.markets[order.market];
    if (state === undefined) return reject('unknown-market');
    const invalid = validateOrder(order, state.levels.ticks, state.spec.minSize, now);
    if (invalid !== null) return reject(invalid);

    const levels = state.levels;
    const bookSide = order.side ^ order.token;
    const limit = order.token === 0 ? order.price : levels.ticks - order.price;
    const crosses = bookSide === BID ? levels.bestAsk <= limit : levels.bestBid >= limit;
    if (order.postOnly && crosses) return reject('post-only-crosses');
    if (order.orderType === OrderType.FOK || order.orderType === OrderType.FAK) {
      const wanted = order.orderType === OrderType.FOK ? order.size : 1;
      if (
        !crosses ||
        fillable(this.orders, this.owners, levels, order.market, bookSide ^ 1, limit, order.owner, wanted) < wanted
      ) {
        return reject(order.orderType === OrderType.FOK ? 'fok-not-filled' : 'fak-no-match');
      }
    }

    const orderId = this.nextOrderId++;
    const expiresAt = order.orderType === OrderType.GTD ? order.expiresAt! : 0;
    this.events.push({
      type: 'accepted',
      seq: ++this.seq,
      at: now,
      orderId,
      market: order.market,
      token: order.token,
      side: order.side,
      orderType: order.orderType,
      price: order.price,
      size: order.size,
      owner: order.owner,
      postOnly: order.postOnly === true,
      expiresAt,
    });
    const filled = crosses ? this.match(order, orderId, bookSide, limit, now) : 0;
    const left = order.size - filled;
    if (left === 0) return { ok: true, orderId, status: 'matched', filled, resting: 0 };
    if (order.orderType === OrderType.GTC || order.orderType === OrderType.GTD) {
      this.rest(order, orderId, bookSide, limit, left, expiresAt, now);
      return { ok: true, orderId, status: 'live', filled, resting: left };
    }
    this.emitCancelled(orderId, order.market, order.owner, left, 'unfilled', now);
    return { ok: true, orderId, status: 'unmatched', filled, resting: 0 };
  }

  cancel(orderId: number, now: number, reason: CancelReason = 'user'): CancelResult {
    this.expireDue(now);
    const slot = this.slotById.get(orderId);
    if (slot === undefined) return { ok: false, reason: 'not-found' };
    const remaining = this.orders.remaining[slot];
    this.removeResting(slot, reason, now);
    return { ok: true, remaining };
  }

  /** Cancels every open order of an owner (in one market when given), in order-id order. */
  cancelOwner(owner: number, market: number | undefined, now: number): number[] {
    this.expireDue(now);
    const o = this.orders;
    const slots: number[] = [];
    for (let slot = this.owners.first(owner); slot !== NONE; slot = o.ownerNext[slot]) {
      if (market === undefined || o.market[slot] === market) slots.push(slot);
    }
    slots.sort((a, b) => o.id[a] - o.id[b]);
    const ids = slots.map((slot) => o.id[slot]);
    for (const slot of slots) this.removeResting(slot, 'user', now);
    return ids;
  }

  /**
   * Cancels every open order of a market (its close), in order-id order, with reason
   * 'market-closed'; returns their ids.
   */
  cancelMarket(market: number, now: number): number[] {
    this.expireDue(now);
    const o = this.orders;
    const slots: number[] = [];
    this.forEachOrderOf(this.markets[market], (slot) => slots.push(slot));
    slots.sort((a, b) => o.id[a] - o.id[b]);
    const ids = slots.map((slot) => o.id[slot]);
    for (const slot of slots) this.removeResting(slot, 'market-closed', now);
    return ids;
  }

  /**
   * Takes the next event sequence number for an event its caller records beside the engine's own
   * (a market's lifecycle step, a custody movement), so that one numbering orders them all.
   */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Expires every GTD order whose time has come; returns how many expired. */
  expire(now: number): number {
    return this.expireDue(now);
  }

  openOrder(orderId: number): OpenOrder | undefined {
    const slot = this.slotById.get(orderId);
    return slot === undefined ? undefined : this.describe(slot);
  }

  /** Walks the other side best first while it crosses; returns the base units filled. */
  private match(order: PlaceOrder, orderId: number, bookSide: number, limit: number, now: number): number {
    const state = this.markets[order.market];
    const levels = state.levels;
    const o = this.orders;
    const opp = bookSide ^ 1;
    const ticks = levels.ticks;
    const fills: Fill[] = [];
    let left = order.size;
    let lastPrice = 0;
    while (left > 0) {
      const price = opp === ASK ? levels.bestAsk : levels.bestBid;
      if (opp === ASK ? price > limit : price < limit || price === 0) break;
      let slot = levels.head[opp][price];
      while (slot !== NONE && left > 0) {
        const next = o.next[slot];
        if (o.owner[slot] === order.owner) {
          this.removeResting(slot, 'self-trade', now);
          slot = next;
          continue;
        }
        const available = o.remaining[slot];
        const qty = available < left ? available : left;
        const makerToken = o.token[slot] as TokenIndex;
        const makerPrice = makerToken === 0 ? price : ticks - price;
        fills.push({
          makerOrderId: o.id[slot],
          makerOwner: o.owner[slot],
          makerToken,
          makerSide: (o.bookSide[slot] ^ makerToken) as Side,
          size: qty,
          makerPrice,
          takerPrice: makerToken === order.token ? makerPrice : ticks - makerPrice,
          kind:
            makerToken === order.token
              ? MatchKind.TRANSFER
              : order.side === Side.BUY
                ? MatchKind.MINT
                : MatchKind.MERGE,
        });
        left -= qty;
        lastPrice = price;
        o.remaining[slot] = available - qty;
        levels.addDepth(opp, price, -qty);
        if (available === qty) this.discard(slot);
        slot = next;
      }
    }
    const filled = order.size - left;
    if (filled > 0) {
      state.lastTrade = lastPrice;
      this.events.push({
        type: 'trade',
        seq: ++this.seq,
        at: now,
        market: order.market,
        takerOrderId: orderId,
        takerOwner: order.owner,
        takerToken: order.token,
        takerSide: order.side,
        size: filled,
        fills,
      });
    }
    return filled;
  }

  private rest(
    order: PlaceOrder,
    orderId: number,
    bookSide: number,
    limit: number,
    left: number,
    expiresAt: number,
    now: number,
  ): void {
    this.insert(
      orderId,
      order.market,
      order.token,
      bookSide,
      limit,
      order.orderType,
      order.size,
      left,
      order.owner,
      expiresAt,
      now,
    );
  }

  /** Puts an order at the back of its level and into the owner and expiry indexes. */
  protected insert(
    orderId: number,
    market: number,
    token: number,
    bookSide: number,
    priceInFirstToken: number,
    orderType: number,
    size: number,
    remaining: number,
    owner: number,
    expiresAt: number,
    acceptedAt: number,
  ): void {
    const o = this.orders;
    const slot = o.allocate();
    o.id[slot] = orderId;
    o.market[slot] = market;
    o.token[slot] = token;
    o.bookSide[slot] = bookSide;
    o.price[slot] = priceInFirstToken;
    o.orderType[slot] = orderType;
    o.size[slot] = size;
    o.remaining[slot] = remaining;
    o.owner[slot] = owner;
    o.expiresAt[slot] = expiresAt;
    o.acceptedAt[slot] = acceptedAt;
    this.markets[market].levels.append(o, slot);
    this.owners.link(slot, owner);
    this.slotById.set(orderId, slot);
    if (expiresAt > 0) {
      this.expiry.push(expiresAt, orderId);
      this.liveGtd++;
    }
  }

  private removeResting(slot: number, reason: CancelReason, now: number): void {
    const o = this.orders;
    this.emitCancelled(o.id[slot], o.market[slot], o.owner[slot], o.remaining[slot], reason, now);
    this.discard(slot);
  }

  /** Takes an order off its level and out of every index, and frees its slot. */
  private discard(slot: number): void {
    const o = this.orders;
    this.markets[o.market[slot]].levels.remove(o, slot);
    this.owners.unlink(slot);
    this.slotById.delete(o.id[slot]);
    if (o.expiresAt[slot] > 0) {
      this.liveGtd--;
      // Entries of orders cancelled or filled before their time would otherwise stay until that
      // time (up to year 9999): place-and-cancel of far GTDs would grow the heap without bound.
      if (this.expiry.size > 2 * this.liveGtd + 1024) this.expiry.retain((id) => this.slotById.get(id) !== undefined);
    }
    o.release(slot);
  }

  private emitCancelled(
    orderId: number,
    market: number,
    owner: number,
    remaining: number,
    reason: CancelReason,
    now: number,
  ): void {
    this.events.push({ type: 'cancelled', seq: ++this.seq, at: now, orderId, market, owner, remaining, reason });
  }

  private expireDue(now: number): number {
    let expired = 0;
    const o = this.orders;
    while (this.expiry.peekTime() <= now) {
      const orderId = this.expiry.peekId();
      this.expiry.pop();
      const slot = this.slotById.get(orderId);
      if (slot === undefined) continue;
      this.events.push({
        type: 'expired',
        seq: ++this.seq,
        at: now,
        orderId,
        market: o.market[slot],
        owner: o.owner[slot],
        remaining: o.remaining[slot],
      });
      this.discard(slot);
      expired++;
    }
    return expired;
  }

  protected describe(slot: number): OpenOrder {
    const o = this.orders;
    const token = o.token[slot] as TokenIndex;
    const ticks = this.markets[o.market[slot]].levels.ticks;
    return {
      orderId: o.id[slot],
      market: o.market[slot],
      token,
      side: (o.bookSide[slot] ^ token) as Side,
      orderType: o.orderType[slot] as OrderType,
      price: token === 0 ? o.price[slot] : ticks - o.price[slot],
      size: o.size[slot],
      remaining: o.remaining[slot],
      owner: o.owner[slot],
      expiresAt: o.expiresAt[slot],
      acceptedAt: o.acceptedAt[slot],
    };
  }

  /** Visits open orders in a canonical order: market, side (bids, asks), price, time priority. */
  protected forEachOrder(visit: (slot: number) => void): void {
    for (const state of this.markets) this.forEachOrderOf(state, visit);
  }

  private forEachOrderOf(state: MarketState, visit: (slot: number) => void): void {
    const o = this.orders;
    const levels = state.levels;
    for (const side of [BID, ASK]) {
      for (let price = 1; price < levels.ticks; price++) {
        for (let slot = levels.head[side][price]; slot !== NONE; slot = o.next[slot]) visit(slot);
      }
    }
  }
}

function reject(reason: RejectReason): PlaceResult {
  return { ok: false, reason };
}

// A deliberately naive matcher for tests: open orders in one array, sorted afresh on every match.
// It shares no code with the engine, only the documented rules, so the two can disagree.

import type { EngineEvent, Fill, Level, PlaceOrder, PlaceResult, RejectReason } from '../types.ts';

interface RefOrder {
  id: number;
  market: number;
  token: 0 | 1;
  side: 0 | 1;
  orderType: number;
  price: number; // own token's ticks
  size: number;
  remaining: number;
  owner: number;
  expiresAt: number;
  arrival: number;
}

const GTC = 0;
const GTD = 1;
const FOK = 2;
const FAK = 3;
const LOT = 10_000;

export class ReferenceMatcher {
  private open: RefOrder[] = [];
  private seq = 0;
  private nextId = 1;
  private arrival = 0;
  readonly events: EngineEvent[] = [];
  readonly lastTrade: number[];

  constructor(private readonly markets: { ticks: number; minSize: number }[]) {
    this.lastTrade = markets.map(() => 0);
  }

  /** An order's price expressed as the first token's price, and whether it is a bid there. */
  private asFirstToken(o: { token: number; side: number; price: number; market: number }) {
    const ticks = this.markets[o.market].ticks;
    const isBid = o.token === 0 ? o.side === 0 : o.side === 1;
    return { isBid, price: o.token === 0 ? o.price : ticks - o.price };
  }

  private expireDue(now: number): void {
    const due = this.open.filter((o) => o.orderType === GTD && o.expiresAt <= now);
    due.sort((a, b) => a.expiresAt - b.expiresAt || a.id - b.id);
    for (const o of due) {
      this.open = this.open.filter((x) => x !== o);
      this.events.push({
        type: 'expired',
        seq: ++this.seq,
        at: now,
        orderId: o.id,
        market: o.market,
        owner: o.owner,
        remaining: o.remaining,
      });
    }
  }

  /** Resting orders a taker could meet, best price first, then earliest arrival. */
  private counterparties(market: number, takerIsBid: boolean, limit: number): RefOrder[] {
    return this.open
      .filter((o) => o.market === market)
      .map((o) => ({ o, t: this.asFirstToken(o) }))
      .filter(({ t }) => t.isBid !== takerIsBid && (takerIsBid ? t.price <= limit : t.price >= limit))
      .sort((a, b) => (takerIsBid ? a.t.price - b.t.price : b.t.price - a.t.price) || a.o.arrival - b.o.arrival)
      .map(({ o }) => o);
  }

  place(order: PlaceOrder, now: number): PlaceResult {
    this.expireDue(now);
    const m = this.markets[order.market];
    const bad = (reason: RejectReason): PlaceResult => ({ ok: false, reason });
    if (!m) return bad('unknown-market');
    if (order.price < 1 || order.price >= m.ticks || !Number.isInteger(order.price)) return bad('invalid-price');
    if (order.size <= 0 || order.size % LOT !== 0) return bad('invalid-size');
    if (order.size < m.minSize) return bad('size-below-minimum');
    if (order.orderType === GTD && !(order.expiresAt! > now)) return bad('invalid-expiration');
    if (order.postOnly && order.orderType !== GTC && order.orderType !== GTD) return bad('post-only-type');
    const { isBid, price: limit } = this.asFirstToken(order);
    const candidates = this.counterparties(order.market, isBid, limit);
    if (order.postOnly && candidates.length > 0) return bad('post-only-crosses');
    const liquidity = candidates.filter((o) => o.owner !== order.owner).reduce((sum, o) => sum + o.remaining, 0);
    if (order.orderType === FOK && liquidity < order.size) return bad('fok-not-filled');
    if (order.orderType === FAK && liquidity === 0) return bad('fak-no-match');

    const id = this.nextId++;
    const expiresAt = order.orderType === GTD ? order.expiresAt! : 0;
    this.events.push({
      type: 'accepted',
      seq: ++this.seq,
      at: now,
      orderId: id,
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
    let left = order.size;
    const fills: Fill[] = [];
    for (const maker of candidates) {
      if (left === 0) break;
      if (maker.owner === order.owner) {
        this.open = this.open.filter((x) => x !== maker);
        this.events.push({
          type: 'cancelled',
          seq: ++this.seq,
          at: now,
          orderId: maker.id,
          market: maker.market,
          owner: maker.owner,
          remaining: maker.remaining,
          reason: 'self-trade',
        });
        continue;
      }
      const qty = Math.min(left, maker.remaining);
      const sameToken = maker.token === order.token;
      fills.push({
        makerOrderId: maker.id,
        makerOwner: maker.owner,
        makerToken: maker.token,
        makerSide: maker.side,
        size: qty,
        makerPrice: maker.price,
        takerPrice: sameToken ? maker.price : m.ticks - maker.price,
        kind: sameToken ? 0 : order.side === 0 ? 1 : 2,
      });
      this.lastTrade[order.market] = this.asFirstToken(maker).price;
      maker.remaining -= qty;
      left -= qty;
      if (maker.remaining === 0) this.open = this.open.filter((x) => x !== maker);
    }
    const filled = order.size - left;
    if (fills.length > 0) {
      this.events.push({
        type: 'trade',
        seq: ++this.seq,
        at: now,
        market: order.market,
        takerOrderId: id,
        takerOwner: order.owner,
        takerToken: order.token,
        takerSide: order.side,
        size: filled,
        fills,
      });
    }
    if (left === 0) return { ok: true, orderId: id, status: 'matched', filled, resting: 0 };
    if (order.orderType === GTC || order.orderType === GTD) {
      this.open.push({
        id,
        market: order.market,
        token: order.token,
        side: order.side,
        orderType: order.orderType,
        price: order.price,
        size: order.size,
        remaining: left,
        owner: order.owner,
        expiresAt,
        arrival: this.arrival++,
      });
      return { ok: true, orderId: id, status: 'live', filled, resting: left };
    }
    this.events.push({
      type: 'cancelled',
      seq: ++this.seq,
      at: now,
      orderId: id,
      market: order.market,
      owner: order.owner,
      remaining: left,
      reason: 'unfilled',
    });
    return { ok: true, orderId: id, status: 'unmatched', filled, resting: 0 };
  }

  cancel(orderId: number, now: number) {
    this.expireDue(now);
    const o = this.open.find((x) => x.id === orderId);
    if (!o) return { ok: false as const, reason: 'not-found' as const };
    this.open = this.open.filter((x) => x !== o);
    this.events.push({
      type: 'cancelled',
      seq: ++this.seq,
      at: now,
      orderId,
      market: o.market,
      owner: o.owner,
      remaining: o.remaining,
      reason: 'user',
    });
    return { ok: true as const, remaining: o.remaining };
  }

  cancelOwner(owner: number, market: number | undefined, now: number): number[] {
    this.expireDue(now);
    const mine = this.open
      .filter((o) => o.owner === owner && (market === undefined || o.market === market))
      .sort((a, b) => a.id - b.id);
    for (const o of mine) {
      this.open = this.open.filter((x) => x !== o);
      this.events.push({
        type: 'cancelled',
        seq: ++this.seq,
        at: now,
        orderId: o.id,
        market: o.market,
        owner,
        remaining: o.remaining,
        reason: 'user',
      });
    }
    return mine.map((o) => o.id);
  }

  expire(now: number): void {
    this.expireDue(now);
  }

  /** Aggregated levels of a market in a token's terms, best first. */
  book(market: number, token: 0 | 1): { bids: Level[]; asks: Level[] } {
    const ticks = this.markets[market].ticks;
    const bids = new Map<number, number>();
    const asks = new Map<number, number>();
    for (const o of this.open.filter((x) => x.market === market)) {
      const t = this.asFirstToken(o);
      const isBidInToken = token === 0 ? t.isBid : !t.isBid;
      const price = token === 0 ? t.price : ticks - t.price;
      const into = isBidInToken ? bids : asks;
      into.set(price, (into.get(price) ?? 0) + o.remaining);
    }
    const levels = (map: Map<number, number>, descending: boolean) =>
      [...map.entries()]
        .map(([price, size]) => ({ price, size }))
        .sort((a, b) => (descending ? b.price - a.price : a.price - b.price));
    return { bids: levels(bids, true), asks: levels(asks, false) };
  }
}

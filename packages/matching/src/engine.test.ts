// Unit tests: one behaviour of the engine each, with hand-computed expectations.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { MatchKind, OrderType, Side, type CancelledEvent, type PlaceOrder, type TradeEvent } from './types.ts';

const TOKEN = 1_000_000; // base units per token
const LOT = 10_000;

function setup(tickSize: '0.01' | '0.001' | '0.0025' | '0.1' = '0.01', minSize = 5 * TOKEN) {
  const engine = new MatchingEngine();
  const market = engine.addMarket({ key: '0xmarket', tickSize, minSize });
  return { engine, market };
}

function order(market: number, fields: Partial<PlaceOrder>): PlaceOrder {
  return {
    market,
    token: 0,
    side: Side.BUY,
    orderType: OrderType.GTC,
    price: 50,
    size: 10 * TOKEN,
    owner: 1,
    ...fields,
  };
}

function trades(engine: MatchingEngine): TradeEvent[] {
  return engine.takeEvents().filter((e): e is TradeEvent => e.type === 'trade');
}

describe('validation', () => {
  it('rejects prices off the tick, at 0 and at or above 1', () => {
    const { engine, market } = setup('0.01');
    for (const price of [0, 100, 101, -1, 50.5]) {
      expect(engine.place(order(market, { price }), 0)).toEqual({ ok: false, reason: 'invalid-price' });
    }
    expect(engine.takeEvents()).toEqual([]);
  });

  it('accepts only prices on a 0.0025 tick (ticks of 1/400)', () => {
    const { engine, market } = setup('0.0025');
    expect(engine.ticksPerUnit(market)).toBe(400);
    expect(engine.place(order(market, { price: 230 }), 0)).toMatchObject({ ok: true, status: 'live' });
    expect(engine.place(order(market, { price: 400 }), 0)).toEqual({ ok: false, reason: 'invalid-price' });
  });

  it('rejects sizes that are not whole lots of 0.01 token, non-positive or too large', () => {
    const { engine, market } = setup();
    for (const size of [0, -LOT, 10 * TOKEN + 1, 5.5, 2 ** 60]) {
      expect(engine.place(order(market, { size }), 0)).toEqual({ ok: false, reason: 'invalid-size' });
    }
  });

  it('rejects sizes below the market minimum', () => {
    const { engine, market } = setup('0.01', 5 * TOKEN);
    expect(engine.place(order(market, { size: 5 * TOKEN - LOT }), 0)).toEqual({
      ok: false,
      reason: 'size-below-minimum',
    });
    expect(engine.place(order(market, { size: 5 * TOKEN }), 0)).toMatchObject({ ok: true });
  });

  it('rejects an unknown market, token, side or order type', () => {
    const { engine, market } = setup();
    expect(engine.place(order(7, {}), 0)).toEqual({ ok: false, reason: 'unknown-market' });
    expect(engine.place(order(market, { token: 2 as 0 }), 0)).toEqual({ ok: false, reason: 'invalid-token' });
    expect(engine.place(order(market, { side: 3 as 0 }), 0)).toEqual({ ok: false, reason: 'invalid-side' });
    expect(engine.place(order(market, { orderType: 9 as 0 }), 0)).toEqual({ ok: false, reason: 'invalid-order-type' });
  });

  it('rejects a GTD whose expiration is missing or not in the future', () => {
    const { engine, market } = setup();
    expect(engine.place(order(market, { orderType: OrderType.GTD }), 1000)).toEqual({
      ok: false,
      reason: 'invalid-expiration',
    });
    expect(engine.place(order(market, { orderType: OrderType.GTD, expiresAt: 1000 }), 1000)).toEqual({
      ok: false,
      reason: 'invalid-expiration',
    });
    expect(engine.place(order(market, { orderType: OrderType.GTD, expiresAt: 1001 }), 1000)).toMatchObject({
      ok: true,
    });
  });

  it('refuses markets with an unsupported tick size or a duplicate key', () => {
    const engine = new MatchingEngine();
    expect(() => engine.addMarket({ key: 'a', tickSize: '0.02' as '0.01', minSize: 0 })).toThrow(/tick size/);
    engine.addMarket({ key: 'a', tickSize: '0.01', minSize: 0 });
    expect(() => engine.addMarket({ key: 'a', tickSize: '0.01', minSize: 0 })).toThrow(/already exists/);
  });
});

describe('price–time priority', () => {
  it('fills the better price first, then the earlier order at the same price', () => {
    const { engine, market } = setup();
    const a = engine.place(order(market, { side: Side.SELL, price: 55, owner: 10 }), 1);
    const b = engine.place(order(market, { side: Side.SELL, price: 54, owner: 11 }), 2);
    const c = engine.place(order(market, { side: Side.SELL, price: 54, owner: 12 }), 3);
    engine.takeEvents();
    engine.place(order(market, { side: Side.BUY, price: 55, size: 25 * TOKEN, owner: 2 }), 4);
    const [trade] = trades(engine);
    expect(trade.fills.map((f) => [f.makerOrderId, f.size, f.makerPrice])).toEqual([
      [(b as { orderId: number }).orderId, 10 * TOKEN, 54],
      [(c as { orderId: number }).orderId, 10 * TOKEN, 54],
      [(a as { orderId: number }).orderId, 5 * TOKEN, 55],
    ]);
    expect(engine.book(market, 0).asks).toEqual([{ price: 55, size: 5 * TOKEN }]);
  });

  it('trades at the resting price and leaves the improvement to the taker', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, owner: 10 }), 1);
    const result = engine.place(order(market, { side: Side.BUY, price: 60, owner: 2 }), 2);
    expect(result).toEqual({ ok: true, orderId: 2, status: 'matched', filled: 10 * TOKEN, resting: 0 });
    const [trade] = trades(engine);
    expect(trade.fills[0]).toMatchObject({ makerPrice: 55, takerPrice: 55, kind: MatchKind.TRANSFER });
    expect(engine.lastTradePrice(market, 0)).toBe(55);
  });

  it('rests the unfilled part of a GTC at its own limit', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, size: 6 * TOKEN, owner: 10 }), 1);
    const result = engine.place(order(market, { side: Side.BUY, price: 56, size: 10 * TOKEN, owner: 2 }), 2);
    expect(result).toMatchObject({ status: 'live', filled: 6 * TOKEN, resting: 4 * TOKEN });
    expect(engine.book(market, 0)).toEqual({ bids: [{ price: 56, size: 4 * TOKEN }], asks: [] });
  });
});

describe('the unified binary book', () => {
  it('shows a BUY of the second token as an ask of the first at 1 − q, and back', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 1, side: Side.BUY, price: 40, owner: 3 }), 1);
    engine.place(order(market, { token: 0, side: Side.BUY, price: 30, owner: 4 }), 2);
    expect(engine.book(market, 0)).toEqual({
      bids: [{ price: 30, size: 10 * TOKEN }],
      asks: [{ price: 60, size: 10 * TOKEN }],
    });
    expect(engine.book(market, 1)).toEqual({
      bids: [{ price: 40, size: 10 * TOKEN }],
      asks: [{ price: 70, size: 10 * TOKEN }],
    });
    expect(engine.bestBid(market, 1)).toBe(40);
    expect(engine.bestAsk(market, 1)).toBe(70);
  });

  it('mints when BUYs of both tokens sum to at least 1, at the resting price', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 0, side: Side.BUY, price: 60, owner: 3 }), 1);
    engine.place(order(market, { token: 1, side: Side.BUY, price: 45, owner: 4 }), 2);
    const [trade] = trades(engine);
    expect(trade.fills).toEqual([
      {
        makerOrderId: 1,
        makerOwner: 3,
        makerToken: 0,
        makerSide: Side.BUY,
        size: 10 * TOKEN,
        makerPrice: 60,
        takerPrice: 40,
        kind: MatchKind.MINT,
      },
    ]);
  });

  it('does not mint when the BUYs sum to less than 1', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 0, side: Side.BUY, price: 60, owner: 3 }), 1);
    expect(engine.place(order(market, { token: 1, side: Side.BUY, price: 39, owner: 4 }), 2)).toMatchObject({
      status: 'live',
    });
    expect(trades(engine)).toEqual([]);
  });

  it('merges when SELLs of both tokens sum to at most 1', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 0, side: Side.SELL, price: 40, owner: 3 }), 1);
    engine.place(order(market, { token: 1, side: Side.SELL, price: 60, owner: 4 }), 2);
    const [trade] = trades(engine);
    expect(trade.fills[0]).toMatchObject({
      makerPrice: 40,
      takerPrice: 60,
      kind: MatchKind.MERGE,
      makerSide: Side.SELL,
    });
  });

  it('transfers the second token between its own BUY and SELL', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 1, side: Side.BUY, price: 30, owner: 3 }), 1);
    engine.place(order(market, { token: 1, side: Side.SELL, price: 25, owner: 4 }), 2);
    const [trade] = trades(engine);
    expect(trade.fills[0]).toMatchObject({ makerPrice: 30, takerPrice: 30, kind: MatchKind.TRANSFER });
    expect(engine.lastTradePrice(market, 1)).toBe(30);
    expect(engine.lastTradePrice(market, 0)).toBe(70);
  });

  it('matches one taker against a mix of transfer and mint makers in price order', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 0, side: Side.SELL, price: 58, owner: 3 }), 1); // ask 58
    engine.place(order(market, { token: 1, side: Side.BUY, price: 43, owner: 4 }), 2); // ask 57
    engine.place(order(market, { token: 0, side: Side.BUY, price: 60, size: 20 * TOKEN, owner: 5 }), 3);
    const [trade] = trades(engine);
    expect(trade.fills.map((f) => [f.kind, f.takerPrice])).toEqual([
      [MatchKind.MINT, 57],
      [MatchKind.TRANSFER, 58],
    ]);
  });
});

describe('order types', () => {
  it('FOK that cannot fill completely is rejected and leaves the book unchanged', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, size: 6 * TOKEN, owner: 10 }), 1);
    engine.takeEvents();
    const before = engine.stateHash();
    const result = engine.place(order(market, { orderType: OrderType.FOK, price: 60, size: 7 * TOKEN, owner: 2 }), 2);
    expect(result).toEqual({ ok: false, reason: 'fok-not-filled' });
    expect(engine.stateHash()).toBe(before);
    expect(engine.takeEvents()).toEqual([]);
  });

  it('FOK fills completely across levels when it can', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, size: 6 * TOKEN, owner: 10 }), 1);
    engine.place(order(market, { side: Side.SELL, price: 56, size: 6 * TOKEN, owner: 11 }), 1);
    const result = engine.place(order(market, { orderType: OrderType.FOK, price: 56, size: 10 * TOKEN, owner: 2 }), 2);
    expect(result).toMatchObject({ ok: true, status: 'matched', filled: 10 * TOKEN });
    expect(engine.book(market, 0).asks).toEqual([{ price: 56, size: 2 * TOKEN }]);
  });

  it("FOK does not count the taker's own resting orders as liquidity", () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, size: 10 * TOKEN, owner: 2 }), 1);
    expect(engine.place(order(market, { orderType: OrderType.FOK, price: 56, owner: 2 }), 2)).toEqual({
      ok: false,
      reason: 'fok-not-filled',
    });
  });

  for (const [restingElsewhere, makers] of [
    [0, 2],
    [0, 80],
    [300, 80],
  ] as const) {
    it(`FOK counts others' liquidity exactly, not its own orders on the same levels (${makers} makers; taker with ${restingElsewhere} other resting orders)`, () => {
      const { engine, market } = setup('0.01', 1);
      // Past 64 crossed orders, a taker with at most 256 resting orders is judged by level depths;
      // with more (far bids here), by walking on.
      for (let i = 0; i < restingElsewhere; i++)
        engine.place(order(market, { price: 10, size: 5 * TOKEN, owner: 2 }), 1);
      const each = 200_000; // 0.2 token, a lot multiple
      const others = makers * each;
      for (let i = 0; i < makers; i++)
        engine.place(order(market, { side: Side.SELL, price: i % 2 === 0 ? 55 : 56, size: each, owner: 3 + i }), 1);
      engine.place(order(market, { side: Side.SELL, price: 55, size: 7 * TOKEN, owner: 2 }), 1);
      engine.place(order(market, { token: 1, side: Side.BUY, price: 43, size: 5 * TOKEN, owner: 2 }), 1); // an ask at 57, its own
      // What others offer up to 57 fills; a lot more does not, whatever the taker's own 12 there.
      expect(
        engine.place(order(market, { orderType: OrderType.FOK, price: 57, size: others + 10_000, owner: 2 }), 2),
      ).toEqual({ ok: false, reason: 'fok-not-filled' });
      expect(
        engine.place(order(market, { orderType: OrderType.FOK, price: 57, size: others, owner: 2 }), 3),
      ).toMatchObject({ ok: true, status: 'matched', filled: others });
    });
  }

  it('FAK fills what it can and cancels the rest', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, size: 6 * TOKEN, owner: 10 }), 1);
    engine.takeEvents();
    const result = engine.place(order(market, { orderType: OrderType.FAK, price: 60, size: 10 * TOKEN, owner: 2 }), 2);
    expect(result).toEqual({ ok: true, orderId: 2, status: 'unmatched', filled: 6 * TOKEN, resting: 0 });
    const events = engine.takeEvents();
    expect(events.map((e) => e.type)).toEqual(['accepted', 'trade', 'cancelled']);
    expect(events[2]).toMatchObject({ orderId: 2, remaining: 4 * TOKEN, reason: 'unfilled' });
    expect(engine.book(market, 0)).toEqual({ bids: [], asks: [] });
  });

  it('FAK with nothing to match is rejected', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 61, owner: 10 }), 1);
    expect(engine.place(order(market, { orderType: OrderType.FAK, price: 60, owner: 2 }), 2)).toEqual({
      ok: false,
      reason: 'fak-no-match',
    });
  });

  it('GTD rests until its expiration and then expires', () => {
    const { engine, market } = setup();
    engine.place(order(market, { orderType: OrderType.GTD, expiresAt: 5000, owner: 3 }), 1000);
    expect(engine.expire(4999)).toBe(0);
    expect(engine.book(market, 0).bids).toHaveLength(1);
    engine.takeEvents();
    expect(engine.expire(5000)).toBe(1);
    expect(engine.takeEvents()).toEqual([
      { type: 'expired', seq: 2, at: 5000, orderId: 1, market, owner: 3, remaining: 10 * TOKEN },
    ]);
    expect(engine.book(market, 0).bids).toEqual([]);
  });

  it('forgets the expiry of GTDs cancelled long before their time, and still expires the rest in order', () => {
    const { engine, market } = setup();
    engine.place(order(market, { orderType: OrderType.GTD, expiresAt: 9000, owner: 3, price: 40 }), 1);
    engine.place(order(market, { orderType: OrderType.GTD, expiresAt: 8000, owner: 3, price: 41 }), 1);
    for (let i = 0; i < 20_000; i++) {
      const placed = engine.place(
        order(market, { orderType: OrderType.GTD, expiresAt: 253_402_300_799_000, owner: 4, price: 30 }),
        2,
      );
      if (!placed.ok) throw new Error('refused');
      engine.cancel(placed.orderId, 2);
    }
    expect(engine.expiryEntries).toBeLessThan(2 * 2 + 1024 + 1);
    engine.takeEvents();
    expect(engine.expire(10_000)).toBe(2);
    expect(engine.takeEvents().map((e) => e.type === 'expired' && e.orderId)).toEqual([2, 1]);
  });

  it('an expired GTD never matches, even before anyone calls expire', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, orderType: OrderType.GTD, expiresAt: 5000, owner: 3 }), 1000);
    const result = engine.place(order(market, { price: 60, owner: 4 }), 6000);
    expect(result).toMatchObject({ status: 'live', filled: 0 });
    expect(engine.takeEvents().map((e) => e.type)).toEqual(['accepted', 'expired', 'accepted']);
  });

  it('post-only that would cross is rejected; one that does not cross rests', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, owner: 10 }), 1);
    expect(engine.place(order(market, { price: 55, postOnly: true, owner: 2 }), 2)).toEqual({
      ok: false,
      reason: 'post-only-crosses',
    });
    expect(engine.place(order(market, { price: 54, postOnly: true, owner: 2 }), 3)).toMatchObject({ status: 'live' });
  });

  it('post-only is only for GTC and GTD', () => {
    const { engine, market } = setup();
    expect(engine.place(order(market, { orderType: OrderType.FOK, postOnly: true }), 1)).toEqual({
      ok: false,
      reason: 'post-only-type',
    });
  });
});

describe('self-trade prevention', () => {
  it('cancels the resting order of the same owner and keeps matching others', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 54, owner: 2 }), 1);
    engine.place(order(market, { side: Side.SELL, price: 55, owner: 9 }), 2);
    engine.takeEvents();
    const result = engine.place(order(market, { price: 55, owner: 2 }), 3);
    expect(result).toMatchObject({ status: 'matched', filled: 10 * TOKEN });
    const events = engine.takeEvents();
    expect(events.map((e) => e.type)).toEqual(['accepted', 'cancelled', 'trade']);
    expect((events[1] as CancelledEvent).reason).toBe('self-trade');
    expect((events[2] as TradeEvent).fills.map((f) => f.makerOwner)).toEqual([9]);
  });

  it('an FAK meeting its own and others’ orders cancels its own and fills the others’, the rest cancelled', () => {
    const { engine, market } = setup();
    engine.place(order(market, { token: 1, side: Side.BUY, price: 51, owner: 2 }), 1); // an ask at 49, its own
    engine.place(order(market, { side: Side.SELL, price: 50, size: 6 * TOKEN, owner: 9 }), 2);
    engine.takeEvents();
    const fak = order(market, { token: 1, side: Side.SELL, orderType: OrderType.FAK, price: 50, owner: 2 });
    expect(engine.place(fak, 3)).toMatchObject({ status: 'unmatched', filled: 6 * TOKEN });
    const events = engine.takeEvents();
    expect(events.map((e) => (e.type === 'cancelled' ? e.reason : e.type))).toEqual([
      'accepted',
      'self-trade',
      'trade',
      'unfilled',
    ]);
    expect(engine.book(market, 0)).toEqual({ bids: [], asks: [] });
  });

  for (const orderType of [OrderType.FAK, OrderType.FOK]) {
    const name = orderType === OrderType.FAK ? 'FAK' : 'FOK';
    it(`an ${name} meeting only its owner's resting orders is refused and leaves them resting for others`, () => {
      const { engine, market } = setup();
      engine.place(order(market, { token: 1, side: Side.BUY, price: 51, size: 11 * TOKEN, owner: 2 }), 1); // ask 49
      engine.place(order(market, { side: Side.SELL, price: 52, owner: 9 }), 2); // beyond the taker's limit
      engine.takeEvents();
      const before = engine.book(market, 0);
      const own = order(market, { token: 1, side: Side.SELL, orderType, price: 51, size: 5 * TOKEN, owner: 2 });
      expect(engine.place(own, 3)).toEqual({
        ok: false,
        reason: orderType === OrderType.FAK ? 'fak-no-match' : 'fok-not-filled',
      });
      expect(engine.takeEvents()).toEqual([]);
      expect(engine.book(market, 0)).toEqual(before);
      const other = { ...own, owner: 3, size: 10 * TOKEN };
      expect(engine.place(other, 4)).toMatchObject({ ok: true, status: 'matched', filled: 10 * TOKEN });
      expect(engine.book(market, 0).asks).toEqual([
        { price: 49, size: TOKEN },
        { price: 52, size: 10 * TOKEN },
      ]);
    });
  }
});

describe('cancels', () => {
  it('cancels one order and reports what was still open', () => {
    const { engine, market } = setup();
    engine.place(order(market, { owner: 2 }), 1);
    expect(engine.cancel(1, 2)).toEqual({ ok: true, remaining: 10 * TOKEN });
    expect(engine.cancel(1, 3)).toEqual({ ok: false, reason: 'not-found' });
    expect(engine.book(market, 0).bids).toEqual([]);
  });

  it('cancels all orders of an owner, or only those in one market', () => {
    const engine = new MatchingEngine();
    const m1 = engine.addMarket({ key: 'a', tickSize: '0.01', minSize: 0 });
    const m2 = engine.addMarket({ key: 'b', tickSize: '0.01', minSize: 0 });
    engine.place(order(m1, { owner: 2, price: 40 }), 1);
    engine.place(order(m2, { owner: 2, price: 41 }), 1);
    engine.place(order(m1, { owner: 2, price: 42 }), 1);
    engine.place(order(m1, { owner: 3, price: 43 }), 1);
    expect(engine.cancelOwner(2, m1, 2)).toEqual([1, 3]);
    expect(engine.openOrder(2)).toMatchObject({ owner: 2, market: m2 });
    expect(engine.cancelOwner(2, undefined, 3)).toEqual([2]);
    expect(engine.openOrderCount).toBe(1);
  });
});

describe('events and views', () => {
  it('numbers events with a strictly increasing sequence', () => {
    const { engine, market } = setup();
    engine.place(order(market, { side: Side.SELL, price: 55, owner: 10 }), 1);
    engine.place(order(market, { side: Side.BUY, price: 56, size: 15 * TOKEN, owner: 2 }), 2);
    engine.cancel(2, 3);
    const seqs = engine.takeEvents().map((e) => e.seq);
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(engine.lastSeq).toBe(4);
  });

  it('reports spread, midpoint and last trade in either token', () => {
    const { engine, market } = setup();
    expect(engine.midpointHalfTicks(market, 0)).toBeNull();
    engine.place(order(market, { side: Side.BUY, price: 40, owner: 1 }), 1);
    engine.place(order(market, { side: Side.SELL, price: 45, owner: 2 }), 1);
    expect(engine.spread(market)).toBe(5);
    expect(engine.midpointHalfTicks(market, 0)).toBe(85); // 0.425
    expect(engine.midpointHalfTicks(market, 1)).toBe(115); // 0.575
    expect(engine.lastTradePrice(market, 0)).toBeNull();
  });

  it('limits the book view to a depth and hashes equal books equally', () => {
    const a = setup();
    const b = setup();
    for (const { engine, market } of [a, b]) {
      engine.place(order(market, { price: 40, owner: 1 }), 1);
      engine.place(order(market, { price: 41, owner: 1 }), 1);
      engine.place(order(market, { price: 42, owner: 1 }), 1);
    }
    expect(a.engine.book(a.market, 0, 2).bids.map((l) => l.price)).toEqual([42, 41]);
    expect(a.engine.bookHash(a.market)).toBe(b.engine.bookHash(b.market));
    b.engine.cancel(2, 2);
    expect(a.engine.bookHash(a.market)).not.toBe(b.engine.bookHash(b.market));
  });
});

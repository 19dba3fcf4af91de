// A market's close in the engine: every open order of that market (both tokens, both sides, GTD
// included) leaves with reason market-closed, in order-id order; other markets are untouched; and
// a caller's own event takes a number in the same sequence.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { OrderType, Side, type CancelledEvent } from './types.ts';

const TOKEN = 1_000_000;

describe('cancelMarket', () => {
  it('cancels every open order of the market, oldest first, and leaves other markets alone', () => {
    const engine = new MatchingEngine();
    const closing = engine.addMarket({ key: 'closing', tickSize: '0.01', minSize: 0 });
    const other = engine.addMarket({ key: 'other', tickSize: '0.01', minSize: 0 });
    const rest = (market: number, token: 0 | 1, side: 0 | 1, price: number, owner: number, gtd = false) =>
      engine.place(
        {
          market,
          token,
          side,
          price,
          size: 2 * TOKEN,
          owner,
          orderType: gtd ? OrderType.GTD : OrderType.GTC,
          ...(gtd ? { expiresAt: 100 } : {}),
        },
        1,
      );
    rest(closing, 0, Side.SELL, 70, 1);
    rest(other, 0, Side.BUY, 40, 1);
    rest(closing, 1, Side.BUY, 20, 2, true);
    rest(closing, 0, Side.BUY, 30, 3);
    engine.takeEvents();
    expect(engine.cancelMarket(closing, 2)).toEqual([1, 3, 4]);
    const events = engine.takeEvents() as CancelledEvent[];
    expect(events.map((e) => [e.orderId, e.reason, e.remaining, e.seq])).toEqual([
      [1, 'market-closed', 2 * TOKEN, 5],
      [3, 'market-closed', 2 * TOKEN, 6],
      [4, 'market-closed', 2 * TOKEN, 7],
    ]);
    expect(engine.openOrderCount).toBe(1);
    expect(engine.book(closing, 0)).toEqual({ bids: [], asks: [] });
    expect(engine.cancelMarket(closing, 3)).toEqual([]);
    // The GTD is gone from the expiry heap's reach too: nothing expires later.
    expect(engine.expire(200)).toBe(0);
    expect(engine.nextSeq()).toBe(8);
    expect(engine.lastSeq).toBe(8);
  });
});

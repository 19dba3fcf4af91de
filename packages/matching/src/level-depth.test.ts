// Level totals stay exact to the base unit however deep one price level gets: the book view shows
// them, and the FOK/FAK check decides on them once more than 256 crossed orders would be walked.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { OrderType, Side } from './types.ts';

const MAX = 1e15; // the largest order: 10^9 tokens
const LOT = 10_000; // 0.01 token

/**
 * Owner 1 rests 150 bids of 10^9 tokens at 0.0001 (1.5 · 10^17 base units, past 2^57), then
 * owner 2 rests 1,000 small bids at the same tick, each sized so that a Float64 running total
 * would round the same way every time (`drift` +1: up, −1: down).
 */
function deepLevel(drift: 1 | -1) {
  const engine = new MatchingEngine();
  const market = engine.addMarket({ key: 'm', tickSize: '0.0001', minSize: 0 });
  let now = 1;
  const bid = (owner: number, size: number) =>
    engine.place({ market, token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 1, size, owner }, now++);
  for (let i = 0; i < 150; i++) bid(1, MAX);
  let float = 150 * MAX;
  let others = 0;
  for (let i = 0; i < 1000; i++) {
    let size = LOT;
    let worst = 0;
    for (let k = 1; k <= 8; k++) {
      const error = Number(BigInt(float + k * LOT) - (BigInt(float) + BigInt(k * LOT)));
      if (error * drift > worst * drift) [worst, size] = [error, k * LOT];
    }
    float += size;
    others += size;
    bid(2, size);
  }
  engine.takeEvents();
  return {
    engine,
    market,
    others,
    sell: (size: number) =>
      engine.place({ market, token: 0, side: Side.SELL, orderType: OrderType.FOK, price: 1, size, owner: 1 }, now++),
  };
}

describe('a price level past 2^57 base units', () => {
  it('shows its exact total in the book, in both tokens’ terms, to the base unit', () => {
    const { engine, market, others } = deepLevel(1);
    const exact = 150n * BigInt(MAX) + BigInt(others);
    expect(engine.book(market, 0).bids[0]!.size).toBe(exact);
    expect(engine.book(market, 1).asks[0]!.size).toBe(exact);
    // One lot of 5.01 tokens more: a total no double holds (a Float64 sum shows …5.009984).
    engine.place(
      { market, token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 1, size: 5_010_000, owner: 3 },
      1e6,
    );
    expect(engine.book(market, 0).bids[0]!.size).toBe(exact + 5_010_000n);
  });

  it('shows a total below 2^53 as a plain number', () => {
    const engine = new MatchingEngine();
    const market = engine.addMarket({ key: 'm', tickSize: '0.01', minSize: 0 });
    engine.place({ market, token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 1, size: MAX, owner: 1 }, 1);
    expect(engine.book(market, 0).bids).toEqual([{ price: 1, size: MAX }]);
  });

  it('kills a FOK one lot larger than what others rest there, and changes nothing', () => {
    const { engine, others, sell } = deepLevel(1);
    expect(sell(others + LOT)).toEqual({ ok: false, reason: 'fok-not-filled' });
    expect(engine.takeEvents()).toEqual([]);
  });

  it('fills a FOK of exactly what others rest there', () => {
    const { others, sell } = deepLevel(-1);
    expect(sell(others)).toMatchObject({ ok: true, status: 'matched', filled: others });
  });
});

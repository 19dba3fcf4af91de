// A bot's belief: balances move exactly by what its answers say and by its resting orders' fills
// at their limit; open orders hold back what they may spend.
import { describe, expect, it } from 'vitest';
import { baseUnits, Belief, COLLATERAL, type RunMarket } from './belief.ts';

const market: RunMarket = { conditionId: '0xc', tokens: ['111', '222'] };
const order = (id: string, side: 'BUY' | 'SELL', token: 0 | 1, cents: number, tokens: number) => ({
  id,
  market,
  token,
  side,
  cents,
  size: tokens * 1_000_000,
  orderType: 'GTC',
});
const answer = (status: string, making: string, taking: string, tradeIDs: string[] = []) => ({
  success: true,
  orderID: '',
  status,
  makingAmount: making,
  takingAmount: taking,
  tradeIDs,
});

describe('Belief', () => {
  it('reads decimal amounts as exact base units', () => {
    expect(baseUnits('12.345678')).toBe(12_345_678);
    expect(baseUnits('5')).toBe(5_000_000);
    expect(baseUnits('0.01')).toBe(10_000);
    expect(() => baseUnits('1.2345678')).toThrow();
  });

  it('a BUY that took at once pays its making amount and receives its taking amount', () => {
    const belief = new Belief();
    belief.deposit(COLLATERAL, 100_000_000);
    const placed = belief.placed(order('o1', 'BUY', 0, 60, 10), answer('matched', '5.5', '10', ['t1']));
    expect(belief.balance(COLLATERAL)).toBe(94_500_000);
    expect(belief.balance('111')).toBe(10_000_000);
    expect(placed.open).toBe(false);
    expect([...belief.takerTrades]).toEqual(['t1']);
  });

  it('a resting order holds back its rest and fills at its own limit as the bot learns of it', () => {
    const belief = new Belief();
    belief.deposit(COLLATERAL, 100_000_000);
    belief.placed(order('o2', 'BUY', 1, 45, 20), answer('live', '0', '0'));
    expect(belief.available(COLLATERAL)).toBe(91_000_000);
    expect(belief.matchedNow('o2', 5_000_000)).toBe(true);
    expect(belief.balance(COLLATERAL)).toBe(97_750_000);
    expect(belief.balance('222')).toBe(5_000_000);
    expect(belief.available(COLLATERAL)).toBe(91_000_000);
    expect(belief.matchedNow('o2', 4_000_000)).toBe(false);
    expect(belief.matchedNow('o2', 20_000_000)).toBe(true);
    expect(belief.open.size).toBe(0);
    expect(belief.balance(COLLATERAL)).toBe(91_000_000);
  });

  it('a resting SELL holds back its tokens; in-flight holds count until released', () => {
    const belief = new Belief();
    belief.deposit('111', 30_000_000);
    belief.placed(order('o3', 'SELL', 0, 70, 10), answer('live', '0', '0'));
    expect(belief.available('111')).toBe(20_000_000);
    belief.hold('111', 5_000_000);
    expect(belief.available('111')).toBe(15_000_000);
    belief.hold('111', -5_000_000);
    belief.close('o3', Date.now());
    expect(belief.available('111')).toBe(30_000_000);
  });

  it('an order in doubt holds back its full spend, is judged by nobody, and is released when not placed', () => {
    const belief = new Belief();
    belief.deposit(COLLATERAL, 100_000_000);
    belief.doubt(order('o4', 'BUY', 0, 50, 20), [COLLATERAL, 10_000_000]);
    expect(belief.unsure('o4')).toBe(true);
    expect(belief.available(COLLATERAL)).toBe(90_000_000);
    expect(belief.notPlaced('o4')).toBe(true);
    expect(belief.notPlaced('o4')).toBe(false);
    expect(belief.unsure('o4')).toBe(false);
    expect(belief.available(COLLATERAL)).toBe(100_000_000);
    expect(belief.orders.has('o4')).toBe(false);
  });

  it('an order found placed is adopted once: its taker trades and later fills count exactly once', () => {
    const belief = new Belief();
    belief.deposit(COLLATERAL, 100_000_000);
    belief.doubt(order('o5', 'BUY', 0, 60, 20), [COLLATERAL, 12_000_000]);
    // Took 5 at 0.55 when placed (trade t5), then 3 more filled while resting at its limit.
    const found = { making: 2_750_000, taking: 5_000_000, takerTrades: ['t5'], matched: 8_000_000, live: true };
    expect(belief.adopt('o5', found)).toBe(true);
    expect(belief.adopt('o5', found)).toBe(false);
    expect(belief.balance(COLLATERAL)).toBe(100_000_000 - 2_750_000 - 1_800_000);
    expect(belief.balance('111')).toBe(8_000_000);
    expect(belief.orders.get('o5')).toMatchObject({ takerMatched: 5_000_000, matched: 8_000_000, open: true });
    // The same fills learnt again (a listing, the trades) move nothing.
    expect(belief.matchedNow('o5', 8_000_000)).toBe(true);
    expect(belief.balance('111')).toBe(8_000_000);
    expect([...belief.takerTrades]).toEqual(['t5']);
    expect(belief.available(COLLATERAL)).toBe(belief.balance(COLLATERAL) - 7_200_000);
  });

  it('an order found closed is adopted closed, with no hold left', () => {
    const belief = new Belief();
    belief.deposit('222', 10_000_000);
    belief.doubt(order('o6', 'SELL', 1, 30, 10), ['222', 10_000_000]);
    const found = { making: 4_000_000, taking: 1_400_000, takerTrades: ['t6'], matched: 4_000_000, live: false };
    expect(belief.adopt('o6', found)).toBe(true);
    expect(belief.open.size).toBe(0);
    expect(belief.balance('222')).toBe(6_000_000);
    expect(belief.balance(COLLATERAL)).toBe(1_400_000);
    expect(belief.available('222')).toBe(6_000_000);
  });
});

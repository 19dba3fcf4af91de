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
});

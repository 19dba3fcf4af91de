// The band strategy on one market: top up short bands at their average margin, cancel a band over
// its maximum down to its average (newest first), cancel quotes in no band.
import { describe, expect, it } from 'vitest';
import { planBands, type Band, type Quote } from './bands.ts';

const band: Band = { minMargin: 1, avgMargin: 2, maxMargin: 3, minAmount: 20, avgAmount: 40, maxAmount: 60 };
const quote = (id: string, side: 'bid' | 'ask', cents: number, remaining: number, placedAt = 0): Quote => ({
  id,
  side,
  cents,
  remaining,
  placedAt,
});

describe('planBands', () => {
  it('an empty book gets one order per side at the average margin for the average amount', () => {
    expect(planBands([band], [], 50.4, 5)).toEqual({
      cancel: [],
      place: [
        { side: 'bid', cents: 48, tokens: 40 },
        { side: 'ask', cents: 53, tokens: 40 },
      ],
    });
  });

  it('a band over its maximum is cancelled down to its average, newest orders first', () => {
    const quotes = [quote('old', 'bid', 48, 30, 1), quote('mid', 'bid', 48, 20, 2), quote('new', 'bid', 49, 20, 3)];
    const plan = planBands([band], [...quotes, quote('a', 'ask', 52, 40)], 50, 5);
    expect(plan.cancel).toEqual(['new', 'mid']);
    expect(plan.place).toEqual([]);
  });

  it('a band under its minimum is topped up to its average, and a quote in no band is cancelled', () => {
    const plan = planBands([band], [quote('b', 'bid', 49, 15), quote('far', 'ask', 60, 40)], 50, 5);
    expect(plan.cancel).toEqual(['far']);
    expect(plan.place).toEqual([
      { side: 'bid', cents: 48, tokens: 25 },
      { side: 'ask', cents: 52, tokens: 40 },
    ]);
  });

  it('places nothing below the minimum order size or outside (0, 1)', () => {
    expect(planBands([band], [quote('b', 'bid', 49, 18)], 50, 25).place).toEqual([
      { side: 'ask', cents: 52, tokens: 40 },
    ]);
    expect(planBands([band], [], 1.5, 5).place).toEqual([{ side: 'ask', cents: 4, tokens: 40 }]);
  });
});

// The figures of a position from the ledger's average-cost fields: exact to the base unit, cut (not
// rounded) to 4 decimals, the shown cashPnl the difference of the shown values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closedFigures, openFigures, type LedgerPosition } from './position-figures.ts';

const T = 1_000_000n;
const position = (fields: Partial<LedgerPosition>): LedgerPosition => ({
  size: 0n,
  costBasis: 0n,
  realizedPnl: 0n,
  closedCost: 0n,
  totalBought: 0n,
  ...fields,
});

describe('openFigures', () => {
  it('values 10 tokens bought for 4.00 at a price of 0.55', () => {
    const figures = openFigures(position({ size: 10n * T, costBasis: 4n * T, totalBought: 10n * T }), 550_000n);
    expect(figures).toEqual({
      size: 10n * T, // 6 decimals
      avgPrice: 4000n, // 0.4000 (4 decimals from here)
      initialValue: 40_000n, // 4.0000
      currentValue: 55_000n, // 5.5000
      cashPnl: 15_000n, // 1.5000
      percentPnl: 375_000n, // 37.5000 %
      totalBought: 10n * T,
      realizedPnl: 0n,
      percentRealizedPnl: 0n,
      curPrice: 550_000n,
    });
  });

  it('cuts toward zero: a loss of 0.6666… % shows as −0.6666, not −0.6667', () => {
    // 2.98 tokens for 3.00, resolved at 1: worth 2.98, a PnL of −0.02, −0.02 / 3 × 100 %.
    const loss = openFigures(position({ size: 2_980_000n, costBasis: 3n * T }), T);
    expect(loss).toMatchObject({ currentValue: 29_800n, cashPnl: -200n, percentPnl: -6_666n });
    // 3 tokens for 1.500001: 1.5000 (cut), and a PnL at 0.5 of −0.000001 shown as 0.
    const small = openFigures(position({ size: 3n * T, costBasis: 1_500_001n }), 500_000n);
    expect(small).toMatchObject({ initialValue: 15_000n, currentValue: 15_000n, cashPnl: 0n, percentPnl: 0n });
  });

  it('gives deposited tokens (no cost) an average price, initial value and PnL percentage of 0', () => {
    expect(openFigures(position({ size: 5n * T }), 500_000n)).toMatchObject({
      avgPrice: 0n,
      initialValue: 0n,
      currentValue: 25_000n,
      cashPnl: 25_000n,
      percentPnl: 0n,
    });
  });

  it('keeps currentValue − initialValue = cashPnl and every figure within one unit of its exact value', () => {
    const units = fc.bigInt({ min: 1n, max: 10n ** 15n });
    fc.assert(
      fc.property(units, units, fc.bigInt({ min: 0n, max: T }), (size, costBasis, price) => {
        const f = openFigures(position({ size, costBasis }), price);
        expect(f.currentValue - f.initialValue).toBe(f.cashPnl);
        // Exact rationals, compared at 4 decimals: |shown − exact| < 1 unit, and never away from zero.
        const exactValue = (size * price) / 10n ** 8n;
        expect(f.currentValue).toBe(exactValue);
        const exactPercentTimes = (size * price - costBasis * T) * 10n ** 4n * 100n; // ÷ (cost × 10^6)
        const shown = f.percentPnl * costBasis * T;
        expect(shown * (exactPercentTimes < 0n ? -1n : 1n)).toBeLessThanOrEqual(
          exactPercentTimes * (exactPercentTimes < 0n ? -1n : 1n),
        );
        expect(f.avgPrice).toBe((costBasis * 10_000n) / size);
      }),
    );
  });
});

describe('closedFigures', () => {
  it('shows nothing held and the average price paid for what was reduced', () => {
    // 8 bought for 3.20 and sold for 4.80: realized 1.60 on a closed cost of 3.20.
    const figures = closedFigures(
      position({ realizedPnl: 1_600_000n, closedCost: 3_200_000n, totalBought: 8n * T }),
      450_000n,
    );
    expect(figures).toEqual({
      size: 0n,
      avgPrice: 4000n,
      initialValue: 0n,
      currentValue: 0n,
      cashPnl: 0n,
      percentPnl: 0n,
      totalBought: 8n * T,
      realizedPnl: 16_000n,
      percentRealizedPnl: 500_000n, // 50 %
      curPrice: 450_000n,
    });
  });

  it('cuts a realized loss toward zero and gives no percentage without a closed cost', () => {
    expect(closedFigures(position({ realizedPnl: -1_234_567n, closedCost: 3n * T }), 0n)).toMatchObject({
      realizedPnl: -12_345n,
      percentRealizedPnl: -411_522n, // −41.15223…
      avgPrice: 0n,
    });
    expect(closedFigures(position({ realizedPnl: 2n * T }), 0n).percentRealizedPnl).toBe(0n);
  });
});

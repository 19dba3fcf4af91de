// collateralFor against BigInt arithmetic over the whole range the engine accepts: every tick size,
// whole-lot sizes up to the engine's cap, every price between the ticks' bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOT, MAX_SIZE } from '@pmx/matching';
import { collateralFor } from './order-cost.ts';

const TICKS_PER_UNIT = [10, 100, 200, 400, 1000, 10_000];

function exact(size: number, price: number, ticksPerUnit: number): number {
  return Number((BigInt(size) * BigInt(price)) / BigInt(ticksPerUnit));
}

describe('collateralFor', () => {
  it('is exact for every whole-lot size up to the cap, at every tick size and price', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS_PER_UNIT),
        fc.integer({ min: 1, max: MAX_SIZE / LOT }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ticksPerUnit, lots, at) => {
          const price = 1 + Math.min(ticksPerUnit - 2, Math.floor(at * (ticksPerUnit - 1)));
          const size = lots * LOT;
          expect(collateralFor(size, price, ticksPerUnit)).toBe(exact(size, price, ticksPerUnit));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('gets the case right where size × price loses its last digit as a double', () => {
    // 14,417,625.33 tokens at 0.9997: the product 1.44e17 is past 2^53, and dividing it as a
    // double gives …400.998 instead of …401.
    expect(collateralFor(14_417_625_330_000, 9997, 10_000)).toBe(14_413_300_042_401);
    expect(collateralFor(MAX_SIZE, 9999, 10_000)).toBe(exact(MAX_SIZE, 9999, 10_000));
  });

  it('takes a size that is not a whole multiple of ticksPerUnit when the result is whole, and refuses one that is not', () => {
    expect(collateralFor(5, 20, 100)).toBe(1);
    expect(() => collateralFor(5, 21, 100)).toThrow('not a whole base unit');
    expect(() => collateralFor(1.5, 20, 100)).toThrow('not a whole base unit');
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatHalfTicks,
  formatPrice,
  formatUnits,
  parseBaseUnits,
  parseDecimal,
  parsePrice,
  scaledToNumber,
} from './decimal.ts';
import { impliedPrice, orderTerms } from './order-terms.ts';

describe('decimal strings', () => {
  it('formats prices on every tick grid exactly', () => {
    expect(formatPrice(57, 100)).toBe('0.57');
    expect(formatPrice(230, 400)).toBe('0.575');
    expect(formatPrice(1, 10000)).toBe('0.0001');
    expect(formatPrice(5, 10)).toBe('0.5');
    expect(formatPrice(199, 200)).toBe('0.995');
  });

  it('formats midpoints that fall between ticks', () => {
    expect(formatHalfTicks(85, 100)).toBe('0.425');
    expect(formatHalfTicks(3, 10000)).toBe('0.00015');
    expect(formatHalfTicks(100, 100)).toBe('0.5');
  });

  it('formats base units as decimal amounts', () => {
    expect(formatUnits(10_500_000)).toBe('10.5');
    expect(formatUnits(1)).toBe('0.000001');
    expect(formatUnits(0)).toBe('0');
    expect(formatUnits(123_000_000_000_000_000n)).toBe('123000000000');
  });

  it('turns scaled integers into the JSON numbers that print as their decimals', () => {
    expect(scaledToNumber(428_571n, 4)).toBe(42.8571);
    expect(scaledToNumber(-101n, 4)).toBe(-0.0101);
    expect(scaledToNumber(2_190_000, 6)).toBe(2.19);
    expect(JSON.stringify(scaledToNumber(123_456_789_012_345n, 4))).toBe('12345678901.2345');
  });

  it('parses decimals and prices, refusing what is not exact', () => {
    expect(parseDecimal('12.5', 6)).toBe(12_500_000n);
    expect(parseDecimal('1.0000001', 6)).toBeNull();
    expect(parseDecimal('-1', 6)).toBeNull();
    expect(parsePrice('0.575', 400)).toBe(230);
    expect(parsePrice('0.571', 400)).toBeNull();
    expect(parsePrice('abc', 100)).toBeNull();
  });

  it('accepts only positive integer digit strings as base units', () => {
    expect(parseBaseUnits('50000000')).toBe(50_000_000n);
    for (const bad of ['0', '-5', '1.5', '1e6', '', ' 1', 5, null, '1'.repeat(79)])
      expect(parseBaseUnits(bad)).toBeNull();
  });
});

describe('order terms', () => {
  const N = 100;
  it('derives a BUY limit and size from its amounts', () => {
    expect(
      orderTerms({
        side: 'BUY',
        makerAmount: 5_700_000n,
        takerAmount: 10_000_000n,
        ticksPerUnit: N,
        marketable: false,
      }),
    ).toEqual({
      ok: true,
      terms: { price: 57, size: 10_000_000 },
    });
  });

  it('derives a SELL limit and size from its amounts', () => {
    expect(
      orderTerms({
        side: 'SELL',
        makerAmount: 10_000_000n,
        takerAmount: 4_300_000n,
        ticksPerUnit: N,
        marketable: false,
      }),
    ).toEqual({
      ok: true,
      terms: { price: 43, size: 10_000_000 },
    });
  });

  it('refuses a limit order whose price is off the tick or whose size is not whole lots', () => {
    expect(
      orderTerms({
        side: 'BUY',
        makerAmount: 5_750_000n,
        takerAmount: 10_000_000n,
        ticksPerUnit: N,
        marketable: false,
      }),
    ).toEqual({ ok: false, problem: 'price-off-tick' });
    expect(
      orderTerms({
        side: 'BUY',
        makerAmount: 5_700_057n,
        takerAmount: 10_000_100n,
        ticksPerUnit: N,
        marketable: false,
      }),
    ).toEqual({ ok: false, problem: 'size-not-whole-lots' });
  });

  it('refuses prices of 0 and of 1 or more', () => {
    expect(
      orderTerms({
        side: 'BUY',
        makerAmount: 10_000_000n,
        takerAmount: 10_000_000n,
        ticksPerUnit: N,
        marketable: false,
      }),
    ).toEqual({ ok: false, problem: 'price-out-of-range' });
    expect(
      orderTerms({ side: 'BUY', makerAmount: 1n, takerAmount: 10_000_000n, ticksPerUnit: N, marketable: true }),
    ).toEqual({ ok: false, problem: 'price-out-of-range' });
  });

  it('rounds a market order to the tick no worse for the signer and cuts its size to lots', () => {
    // $10 at up to 0.57 buys 17.543859 tokens: limit 0.57 (not 0.58), 17.54 tokens.
    expect(
      orderTerms({
        side: 'BUY',
        makerAmount: 10_000_000n,
        takerAmount: 17_543_859n,
        ticksPerUnit: N,
        marketable: true,
      }),
    ).toEqual({
      ok: true,
      terms: { price: 57, size: 17_540_000 },
    });
    // Selling 17.543859 tokens for at least $10 (0.5700…): limit rounds up to 0.58.
    expect(
      orderTerms({
        side: 'SELL',
        makerAmount: 17_543_859n,
        takerAmount: 10_000_000n,
        ticksPerUnit: N,
        marketable: true,
      }),
    ).toEqual({
      ok: true,
      terms: { price: 58, size: 17_540_000 },
    });
  });

  it('states the implied price for messages', () => {
    expect(impliedPrice('BUY', 5_750_000n, 10_000_000n)).toBe('0.575');
    expect(impliedPrice('SELL', 1_000_000n, 3n)).toBe('0.000003');
  });
});

// The account-data parameters' readers: every value either taken exactly or refused naming the
// parameter, and token amounts turned into base units without rounding anyone out.
import { describe, expect, it } from 'vitest';
import { HttpError } from '@pmx/http';
import { choice, conditionIds, direction, flag, integer, titleFilter, tokenAmount } from './query.ts';

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('query readers', () => {
  it('reads token amounts into base units, a fraction past the sixth decimal rounding up', () => {
    expect(tokenAmount('minBalance', undefined, 1_000_000n)).toBe(1_000_000n);
    expect(tokenAmount('minBalance', '0', 1n)).toBe(0n);
    expect(tokenAmount('minBalance', '2.5', 1n)).toBe(2_500_000n);
    expect(tokenAmount('minBalance', '0.000001', 1n)).toBe(1n);
    expect(tokenAmount('minBalance', '0.0000001', 1n)).toBe(1n); // at least one base unit
    expect(tokenAmount('minBalance', '1.0000000', 1n)).toBe(1_000_000n);
    for (const bad of ['-1', '1e3', '.5', '1.', 'one', '1,5', '0x10', '1234567890123456'])
      expect(refusal(() => tokenAmount('minBalance', bad, 1n)), bad).toMatch(/^invalid_field: minBalance /);
  });

  it('reads whole numbers within a bound', () => {
    expect(integer('limit', undefined, 20, 500)).toBe(20);
    expect(integer('limit', '0', 20, 500)).toBe(0);
    expect(integer('limit', '500', 20, 500)).toBe(500);
    for (const bad of ['501', '-1', '1.5', ' 1', '+1', '9'.repeat(20)])
      expect(refusal(() => integer('limit', bad, 20, 500)), bad).toBe(
        'invalid_field: limit must be a whole number from 0 to 500',
      );
  });

  it('reads condition ids lower-case and once each, at most as many as allowed', () => {
    expect(conditionIds('market', '0xAB, 0xab,0x01', 5)).toEqual(['0xab', '0x01']);
    expect(refusal(() => conditionIds('market', '0xab,,0xcd', 5))).toMatch(/^invalid_field: market must be/);
    expect(refusal(() => conditionIds('market', `0x${'a'.repeat(65)}`, 5))).toMatch(/^invalid_field: market/);
    expect(refusal(() => conditionIds('market', '0x1,0x2,0x3', 2))).toBe(
      'invalid_field: market takes at most 2 condition ids, got 3',
    );
  });

  it('reads flags, choices, directions and titles in any case', () => {
    expect([flag('redeemable', undefined), flag('redeemable', 'TRUE'), flag('redeemable', 'false')]).toEqual([
      false,
      true,
      false,
    ]);
    expect(choice('sortBy', 'cashPnl', ['CASHPNL', 'TITLE'] as const, 'TITLE')).toBe('CASHPNL');
    expect(direction('sortDirection', undefined)).toBe('DESC');
    expect(direction('sortDirection', 'Ascending')).toBe('ASC');
    expect(titleFilter('title', 'Rain IN')).toBe('rain in');
    // 100 characters, counted as characters (an emoji is one), not UTF-16 units.
    expect(titleFilter('title', '🌧'.repeat(100))).toBe('🌧'.repeat(100));
    expect(refusal(() => titleFilter('title', 'x'.repeat(101)))).toBe(
      'invalid_field: title must be at most 100 characters',
    );
  });
});

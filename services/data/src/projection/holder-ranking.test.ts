// Holders of a token stay ranked by amount (then address) through every change, as a sort would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HolderRanking } from './holder-ranking.ts';

describe('HolderRanking', () => {
  it('ranks more tokens first, equal amounts by address, and reads a prefix above a minimum', () => {
    const ranking = new HolderRanking();
    ranking.set('0xc', 5);
    ranking.set('0xa', 7);
    ranking.set('0xb', 5);
    ranking.set('0xd', 1);
    expect(ranking.top(10, 1).map((h) => h.address)).toEqual(['0xa', '0xb', '0xc', '0xd']);
    expect(ranking.top(2, 1).map((h) => h.address)).toEqual(['0xa', '0xb']);
    expect(ranking.top(10, 5).map((h) => h.address)).toEqual(['0xa', '0xb', '0xc']);
    ranking.set('0xa', 0); // sold out: no longer a holder
    ranking.set('0xd', 9);
    expect(ranking.top(10, 1)).toEqual([
      { address: '0xd', amount: 9 },
      { address: '0xb', amount: 5 },
      { address: '0xc', amount: 5 },
    ]);
    expect(ranking.size).toBe(3);
  });

  it('agrees with sorting the latest holdings after any sequence of changes', () => {
    const change = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -2, max: 50 }));
    fc.assert(
      fc.property(fc.array(change, { maxLength: 300 }), (changes) => {
        const ranking = new HolderRanking();
        const latest = new Map<string, number>();
        for (const [who, amount] of changes) {
          const address = `0x${who.toString(16).padStart(2, '0')}`;
          ranking.set(address, amount);
          latest.set(address, amount);
        }
        const expected = [...latest]
          .filter(([, amount]) => amount > 0)
          .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
          .map(([address, amount]) => ({ address, amount }));
        expect(ranking.top(1000, 1)).toEqual(expected);
      }),
    );
  });
});

// The lifecycle's transitions and what each state allows, as one table.
import { describe, expect, it } from 'vitest';
import { custodyAllowed, isPayouts, nextState, takesOrders } from './lifecycle.ts';
import type { LifecycleStep, MarketState } from './shard-events.ts';

const STATES: MarketState[] = ['open', 'paused', 'closed', 'resolved'];
const STEPS: LifecycleStep[] = ['pause', 'resume', 'close', 'resolve'];

describe('market lifecycle', () => {
  it('moves open ⇄ paused, open or paused → closed, anything unresolved → resolved, and nothing else', () => {
    const table = Object.fromEntries(
      STATES.map((state) => [state, Object.fromEntries(STEPS.map((step) => [step, nextState(state, step) ?? '-']))]),
    );
    expect(table).toEqual({
      open: { pause: 'paused', resume: '-', close: 'closed', resolve: 'resolved' },
      paused: { pause: '-', resume: 'open', close: 'closed', resolve: 'resolved' },
      closed: { pause: '-', resume: '-', close: '-', resolve: 'resolved' },
      resolved: { pause: '-', resume: '-', close: '-', resolve: '-' },
    });
  });

  it('takes orders only while open; splits until closed, merges always, redeems once resolved', () => {
    expect(STATES.filter(takesOrders)).toEqual(['open']);
    expect(STATES.filter((s) => custodyAllowed(s, 'split'))).toEqual(['open', 'paused']);
    expect(STATES.filter((s) => custodyAllowed(s, 'merge'))).toEqual(STATES);
    expect(STATES.filter((s) => custodyAllowed(s, 'redeem'))).toEqual(['resolved']);
  });

  it('knows a binary market’s three resolutions and no other payouts', () => {
    expect(
      [
        [1_000_000, 0],
        [0, 1_000_000],
        [500_000, 500_000],
      ].every(isPayouts),
    ).toBe(true);
    for (const wrong of [[1_000_000, 1_000_000], [600_000, 400_000], [1_000_000], '1,0', null])
      expect(isPayouts(wrong)).toBe(false);
  });
});

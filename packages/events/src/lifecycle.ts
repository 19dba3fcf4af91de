// A market's life as one table of transitions, shared by the shard (which decides, in sequence
// with the market's orders) and the front end (which words a refusal before asking the shard):
//   open ⇄ paused (pause, resume); open | paused → closed (close); any but resolved → resolved.
// Orders are taken only while open; splits until the market closes; merges always; redemptions
// once resolved (docs/guides/market-lifecycle.md).

import type { CustodyOp, LifecycleStep, MarketState, Payouts } from './shard-events.ts';

/** The state a step leads to, or undefined when it does not apply to a market in `state`. */
export function nextState(state: MarketState, step: LifecycleStep): MarketState | undefined {
  switch (step) {
    case 'pause':
      return state === 'open' ? 'paused' : undefined;
    case 'resume':
      return state === 'paused' ? 'open' : undefined;
    case 'close':
      return state === 'open' || state === 'paused' ? 'closed' : undefined;
    case 'resolve':
      return state === 'resolved' ? undefined : 'resolved';
  }
}

/** Whether new orders are taken. */
export function takesOrders(state: MarketState): boolean {
  return state === 'open';
}

/** Whether a custody movement is allowed in a market in `state`. */
export function custodyAllowed(state: MarketState, op: CustodyOp): boolean {
  switch (op) {
    case 'split':
      return state === 'open' || state === 'paused';
    case 'merge':
      return true;
    case 'redeem':
      return state === 'resolved';
  }
}

/** One whole token in base units: payouts are per whole token. */
export const PAYOUT_UNIT = 1_000_000;

/** The resolutions a binary market can have: token0 wins, token1 wins, or 50/50. */
export const WINNER_PAYOUTS: readonly Payouts[] = [
  [PAYOUT_UNIT, 0],
  [0, PAYOUT_UNIT],
];
export const FIFTY_FIFTY: Payouts = [PAYOUT_UNIT / 2, PAYOUT_UNIT / 2];

export function isPayouts(value: unknown): value is Payouts {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    [...WINNER_PAYOUTS, FIFTY_FIFTY].some((p) => p[0] === value[0] && p[1] === value[1])
  );
}

// The operator's steps in a market's life (docs/guides/market-lifecycle.md): pause, resume, close
// and resolve, each sent to the market's shard, which sequences it with the market's orders, and
// answered once its events are queued and applied here. The words traders and operators read
// when a market's state refuses them are here too, in one place.

import { HttpError } from '@pmx/http';
import { FIFTY_FIFTY, PAYOUT_UNIT, nextState, type LifecycleStep, type MarketState, type Payouts } from '@pmx/events';
import type { ShardSet } from '../shards/shard-set.ts';
import type { TradingCore } from '../trading-core.ts';
import type { MarketRecord } from './market-registry.ts';

/** Why a market in `state` takes no new orders. */
export function ordersRefused(state: MarketState): string {
  switch (state) {
    case 'paused':
      return 'market is paused: it takes no new orders until it resumes (open orders can still be cancelled)';
    case 'resolved':
      return 'market is resolved: it takes no more orders (its tokens are redeemed with POST /redeem)';
    default:
      return 'market is closed: it takes no more orders';
  }
}

const DONE: Record<LifecycleStep, string> = {
  pause: 'paused',
  resume: 'resumed',
  close: 'closed',
  resolve: 'resolved',
};

/** Why `step` does not apply to a market in `state`. */
export function stepRefused(step: LifecycleStep, state: MarketState): string {
  if (DONE[step] === state) return `market is already ${state}`;
  if (step === 'resume' && state === 'open') return 'market is not paused';
  return `market is ${state}: it cannot be ${DONE[step]}`;
}

/**
 * The payouts a resolution asks for: `outcome` names the winner (its outcome name, in any case,
 * or its token id), or `fiftyFifty` splits it. A neg-risk market resolves to one winner only.
 */
export function resolutionPayouts(market: MarketRecord, outcome: string | undefined, fiftyFifty: boolean): Payouts {
  if (fiftyFifty) {
    if (outcome !== undefined) throw new HttpError(400, 'send either outcome or is_50_50_outcome, not both');
    if (market.negRisk)
      throw new HttpError(
        400,
        'a neg-risk market resolves to one winning outcome: 50/50 is not supported for neg-risk markets',
      );
    return [...FIFTY_FIFTY];
  }
  const wanted = outcome?.toLowerCase();
  const index = market.tokens.findIndex(
    (token, i) => token === outcome || market.outcomes[i]!.toLowerCase() === wanted,
  );
  if (outcome === undefined || index < 0) {
    const names = market.outcomes.map((name) => JSON.stringify(name)).join(' or ');
    throw new HttpError(400, `outcome must be ${names} (or its token id), or send is_50_50_outcome: true`);
  }
  return index === 0 ? [PAYOUT_UNIT, 0] : [0, PAYOUT_UNIT];
}

export class MarketLifecycle {
  constructor(
    private readonly core: TradingCore,
    private readonly shards: ShardSet,
  ) {}

  /** The market by condition id, or 404. */
  market(conditionId: string): MarketRecord {
    const market = this.core.markets.get(conditionId);
    if (market === undefined) throw new HttpError(404, 'market not found');
    return market;
  }

  /**
   * Takes a step; resolves to the market as it is after it and how many resting orders a close
   * cancelled. A step that does not apply is a 400 naming the market's state.
   */
  async step(market: MarketRecord, step: LifecycleStep, payouts?: Payouts): Promise<{ cancelled: number }> {
    this.core.assertReady(market.conditionId);
    if (nextState(market.state, step) === undefined) throw new HttpError(400, stepRefused(step, market.state));
    const result = await this.shards.submit(this.shards.shardOf(market.conditionId), {
      type: 'lifecycle',
      market: market.conditionId,
      step,
      ...(payouts === undefined ? {} : { payouts }),
    });
    if (result.type !== 'lifecycle') throw new Error(shardFailure(result));
    // Another step got there first (two operators at once): the shard decided in sequence.
    if (!result.ok)
      throw new HttpError(400, result.state === 'unknown' ? 'market not found' : stepRefused(step, result.state));
    return { cancelled: result.cancelled };
  }
}

/** The message of a shard result that is not the one asked for (a command that failed in the shard). */
export function shardFailure(result: { type: string; message?: string }): string {
  return result.type === 'error' ? (result.message ?? 'the shard failed') : `unexpected shard result ${result.type}`;
}

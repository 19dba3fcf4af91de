// A user's custody movements (docs/reference/custody.md): split collateral into a pair of a
// market's tokens, merge a pair back, redeem a resolved market's tokens for their payout. Each
// holds what it takes in the risk book (so no order can spend it meanwhile), goes through the
// market's shard (which sequences it with the market's trades and queues its event), and is
// settled here when the shard's reply is applied, before the answer.

import { randomUUID } from 'node:crypto';
import { HttpError } from '@pmx/http';
import { custodyAllowed, type CustodyOp, type MarketState } from '@pmx/events';
import { COLLATERAL, type CustodyHold } from '@pmx/risk';
import type { MarketRecord } from '../markets/market-registry.ts';
import { shardFailure } from '../markets/market-lifecycle.ts';
import type { ShardSet } from '../shards/shard-set.ts';
import type { TradingCore } from '../trading-core.ts';

export interface CustodyReceipt {
  /** Collateral paid in (split) or out (merge, redeem), base units. */
  collateral: number;
  /** Of each of the market's tokens: received (split) or burnt (merge, redeem), base units. */
  tokens: [number, number];
}

/** Why a custody movement does not apply to a market in `state`. */
export function custodyRefused(op: CustodyOp, state: MarketState): string {
  if (op === 'redeem') return `market is not resolved (it is ${state}): its tokens are redeemed once it resolves`;
  return `market is ${state}: no more splits once a market closes (merge or redeem instead)`;
}

export class Custody {
  constructor(
    private readonly core: TradingCore,
    private readonly shards: ShardSet,
  ) {}

  /** Splits `amount` of `address`'s available collateral into `amount` of each token. */
  split(address: string, market: MarketRecord, amount: number): Promise<CustodyReceipt> {
    return this.move('split', address, market, [amount, amount], [{ asset: COLLATERAL, amount }]);
  }

  /** Merges `amount` of each of the market's tokens back into `amount` of collateral. */
  merge(address: string, market: MarketRecord, amount: number): Promise<CustodyReceipt> {
    const tokens: [number, number] = [amount, amount];
    return this.move('merge', address, market, tokens, holdsOf(market, tokens));
  }

  /** Redeems every token of the market `address` holds for the market's payouts. */
  redeem(address: string, market: MarketRecord): Promise<CustodyReceipt> {
    this.core.assertReady(market.conditionId);
    if (!custodyAllowed(market.state, 'redeem')) throw new HttpError(400, custodyRefused('redeem', market.state));
    const tokens = market.tokens.map((token) => this.core.risk.balance(address, token).available) as [number, number];
    if (tokens[0] + tokens[1] === 0)
      throw new HttpError(400, 'nothing to redeem: you hold no tokens of this market (already redeemed?)');
    return this.move('redeem', address, market, tokens, holdsOf(market, tokens));
  }

  private async move(
    op: CustodyOp,
    address: string,
    market: MarketRecord,
    tokens: [number, number],
    holds: CustodyHold[],
  ): Promise<CustodyReceipt> {
    this.core.assertReady(market.conditionId);
    if (!custodyAllowed(market.state, op)) throw new HttpError(400, custodyRefused(op, market.state));
    const id = `custody:${randomUUID()}`;
    const held = this.core.risk.holdCustody(id, address, holds);
    if (!held.ok) {
      const what = held.asset === COLLATERAL ? 'collateral' : `token ${held.asset}`;
      throw new HttpError(
        400,
        `not enough balance / allowance: ${held.available} of ${what} available, ${held.wanted} asked (base units)`,
      );
    }
    let result;
    try {
      result = await this.shards.submit(this.shards.shardOf(market.conditionId), {
        type: 'custody',
        id,
        op,
        market: market.conditionId,
        owner: address,
        tokens,
      });
    } finally {
      // Settled (the reply was applied before this answer) or refused: nothing stays held.
      this.core.risk.releaseCustody(id);
    }
    if (result.type !== 'custody') throw new Error(shardFailure(result));
    if (!result.ok)
      throw new HttpError(400, result.state === 'unknown' ? 'market not found' : custodyRefused(op, result.state));
    return { collateral: result.collateral, tokens };
  }
}

function holdsOf(market: MarketRecord, tokens: [number, number]): CustodyHold[] {
  return market.tokens.map((asset, i) => ({ asset, amount: tokens[i]! }));
}

// GET /holders: the largest holders of each outcome token of the asked markets, read as a prefix
// of each token's ranking (kept sorted as positions change), with their public profiles.

import { scaledToNumber } from '@pmx/codec';
import type { Route } from '@pmx/http';
import type { AccountProjection } from '../projection/account-projection.ts';
import { SCALE_TOKENS } from '../projection/position-figures.ts';
import { assetId } from '../projection/position-view.ts';
import { answering } from './faults.ts';
import { conditionIds, integer, readParams, tokenAmount } from './query.ts';

/** At most this many markets a request (two tokens each, up to 500 holders a token). */
export const MAX_HOLDER_MARKETS = 20;

export function holderRoutes(projection: AccountProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/holders',
      handler: answering((ctx) => {
        const q = readParams(ctx, ['market', 'limit', 'minBalance'], ['market']);
        const markets = conditionIds('market', q.market!, MAX_HOLDER_MARKETS);
        const limit = integer('limit', q.limit, 20, 500);
        const minBalance = tokenAmount('minBalance', q.minBalance, 1_000_000n);
        // Holdings are below 2^53 base units (the ledger keeps sizes as such), so a larger bound holds no one.
        const least = minBalance > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Math.max(1, Number(minBalance));
        const state = projection.state;
        // Valid while these markets' holders and the profiles are unchanged.
        const stamp = () =>
          `${state.profilesVersion}:${markets.map((id) => state.markets.get(id)?.holdersVersion ?? -1).join(',')}`;
        const build = () => {
          const results = [];
          for (const conditionId of markets) {
            const market = state.markets.get(conditionId);
            if (market === undefined) continue;
            for (const index of [0, 1] as const) {
              const asset = assetId(conditionId, index);
              const holders = market.holders[index].top(limit, least).map((holder) => {
                const profile = state.profiles.get(holder.address);
                return {
                  proxyWallet: holder.address,
                  bio: profile?.bio ?? '',
                  asset,
                  pseudonym: profile?.pseudonym ?? '',
                  name: profile?.name ?? '',
                  profileImage: profile?.profileImage ?? '',
                  profileImageOptimized: '',
                  amount: scaledToNumber(holder.amount, SCALE_TOKENS),
                  displayUsernamePublic: profile?.displayUsernamePublic ?? false,
                  outcomeIndex: index,
                };
              });
              results.push({ token: asset, holders });
            }
          }
          return JSON.stringify(results);
        };
        return { body: state.responses.through(`${ctx.path}?${ctx.rawQuery}`, stamp, build) };
      }),
    },
  ];
}

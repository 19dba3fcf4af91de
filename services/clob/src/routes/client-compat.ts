// Lookups the official client makes before it builds orders (docs/design/auth.md): market info by
// token or condition id in its compact form, the fee rates, and GET /ok.

import { BYTES32_HEX } from '@pmx/codec';
import { HttpError, type Route } from '@pmx/http';
import type { MarketRegistry } from '../markets/market-registry.ts';
import { tokenRef } from './token-param.ts';

export function clientCompatRoutes(markets: MarketRegistry): Route[] {
  return [
    { method: 'GET', path: '/ok', handler: () => ({ body: '"OK"' }) },
    {
      method: 'GET',
      path: '/markets-by-token/:token_id',
      handler: (ctx) => {
        const ref = tokenRef(markets, ctx.params.token_id);
        return {
          body: {
            condition_id: ref.market.conditionId,
            primary_token_id: ref.market.tokens[0],
            secondary_token_id: ref.market.tokens[1],
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/clob-markets/:condition_id',
      handler: (ctx) => {
        const market = markets.get(ctx.params.condition_id ?? '');
        if (market === undefined) throw new HttpError(404, 'market not found');
        return {
          body: {
            c: market.conditionId,
            t: market.tokens.map((t, i) => ({ t, o: market.outcomes[i] })),
            mts: Number(market.tickSize),
            mos: market.minOrderSize / 1_000_000,
            nr: market.negRisk,
            fd: { r: 0, e: 0 },
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/fee-rate',
      handler: (ctx) => (tokenRef(markets, ctx.query.get('token_id') ?? undefined), { body: { base_fee: 0 } }),
    },
    {
      // A client given a builder code reads the builder's fee rates (once per code) before its
      // first market order or BUY capped by `userUSDCBalance`; with throwOnError a 404 here would
      // stop those orders before they are sent. Any code may be put in an order and pmx charges no
      // fees, so every well-formed code has rates of 0.
      method: 'GET',
      path: '/fees/builder-fees/:builder_code',
      handler: (ctx) => {
        if (!BYTES32_HEX.test(ctx.params.builder_code ?? ''))
          throw new HttpError(400, 'the builder code must be 0x and 64 hex digits');
        return { body: { builder_maker_fee_rate_bps: 0, builder_taker_fee_rate_bps: 0 } };
      },
    },
  ];
}

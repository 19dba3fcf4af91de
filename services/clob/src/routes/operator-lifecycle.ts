// The operator's lifecycle steps (bearer token), one route each: POST
// /operator/markets/{condition_id}/pause, /resume, /close and /resolve. Each answers the market as
// GET /markets/{condition_id} shows it after the step, plus how many resting orders a close (or a
// resolution of a market still open) cancelled. `pmx market pause|resume|close|resolve` wraps them.

import { HttpError, type Hook, type Route } from '@pmx/http';
import type { LifecycleStep, Payouts } from '@pmx/events';
import type { BookCache } from '../market-data/book-cache.ts';
import { resolutionPayouts, type MarketLifecycle } from '../markets/market-lifecycle.ts';
import type { MarketRecord } from '../markets/market-registry.ts';
import { marketDetail } from './markets.ts';

const CONDITION_ID = /^0x[0-9a-fA-F]{1,64}$/;

/** The resolve body: `{outcome}` (an outcome name or token id) or `{is_50_50_outcome: true}`. */
function payoutsOf(raw: unknown, market: MarketRecord): Payouts {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new HttpError(400, 'the body must be a JSON object: {"outcome": "Yes"} or {"is_50_50_outcome": true}');
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body))
    if (key !== 'outcome' && key !== 'is_50_50_outcome') throw new HttpError(400, `unknown field ${key}`);
  if (body.outcome !== undefined && typeof body.outcome !== 'string')
    throw new HttpError(400, 'outcome must be a string: an outcome name or its token id');
  if (body.is_50_50_outcome !== undefined && typeof body.is_50_50_outcome !== 'boolean')
    throw new HttpError(400, 'is_50_50_outcome must be a boolean');
  return resolutionPayouts(market, body.outcome, body.is_50_50_outcome === true);
}

export function operatorLifecycleRoutes(
  lifecycle: MarketLifecycle,
  books: BookCache,
  auth: Hook<object>,
): Route<object>[] {
  const steps: LifecycleStep[] = ['pause', 'resume', 'close', 'resolve'];
  return steps.map((step) => ({
    method: 'POST',
    path: `/operator/markets/:condition_id/${step}`,
    options: { before: [auth] },
    handler: async (ctx) => {
      const id = (ctx.params.condition_id ?? '').toLowerCase();
      if (!CONDITION_ID.test(id)) throw new HttpError(400, 'condition_id must be 0x-prefixed hex');
      const market = lifecycle.market(id);
      const payouts = step === 'resolve' ? payoutsOf(ctx.json(), market) : undefined;
      const { cancelled } = await lifecycle.step(market, step, payouts);
      return { body: { ...marketDetail(market, books), cancelled_orders: cancelled } };
    },
  }));
}

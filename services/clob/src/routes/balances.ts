// GET /balance-allowance (level 2): what the caller holds of collateral or of one outcome token.
// Custody is off-chain, so `balance` is the total held and `allowance` what open orders have
// not reserved (what a new order can still use), also per exchange under `allowances` as the
// official client reads it; all in base units as the real service sends.

import { HttpError, type Hook, type Route } from '@pmx/http';
import { COLLATERAL, type RiskBook } from '@pmx/risk';
import type { ApiKeyLocals } from '@pmx/auth';
import type { MarketRegistry } from '../markets/market-registry.ts';

export function balanceRoutes(risk: RiskBook, markets: MarketRegistry, auth: Hook<ApiKeyLocals>, exchanges: readonly string[]): Route<ApiKeyLocals>[] {
  // GET /balance-allowance/update asks the real service to re-read the chain; custody here is
  // off-chain and always current, so it answers what GET /balance-allowance does.
  return ['/balance-allowance', '/balance-allowance/update'].map((path) => ({
    method: 'GET',
    path,
    options: { before: [auth] },
    handler: (ctx) => {
      const type = ctx.query.get('asset_type') ?? 'COLLATERAL';
      let asset = COLLATERAL;
      if (type === 'CONDITIONAL') {
        asset = ctx.query.get('token_id') ?? '';
        if (markets.byTokenId(asset) === undefined) throw new HttpError(400, 'token_id must name a traded token');
      } else if (type !== 'COLLATERAL') {
        throw new HttpError(400, 'asset_type must be COLLATERAL or CONDITIONAL');
      }
      const balance = risk.balance(ctx.locals.apiKey!.address, asset);
      const available = String(balance.available);
      return { body: { balance: String(balance.total), allowance: available, allowances: Object.fromEntries(exchanges.map((e) => [e, available])) } };
    },
  }));
}

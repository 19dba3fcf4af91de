// GET /balance-allowance (level 2): what the caller holds of collateral or of one outcome token.
// Custody is off-chain, so `balance` is the total held and `allowance` what open orders have
// not reserved (what a new order can still use), also per exchange under `allowances` as the
// official client reads it; all in base units as the real service sends. `signature_type` (as
// the official client sends it) picks whose balance: 0 (default) the key's own address, 1 or 2
// the proxy wallet of that type registered for it, the maker whose balance backs its orders.

import { HttpError, type Hook, type Route } from '@pmx/http';
import { COLLATERAL, type Balance } from '@pmx/risk';
import type { ApiKeyLocals } from '@pmx/auth';
import type { MarketRegistry } from '../markets/market-registry.ts';

/**
 * Whose balance a level-2 request moves or reads: `signature_type` 0 (or none) the key's own
 * address, 1 or 2 the one proxy wallet of that type registered for it.
 */
export function holderOf(
  proxyOf: (signer: string, signatureType: 1 | 2) => string[],
): (signer: string, signatureType: string | null) => string {
  return (signer, signatureType) => {
    if (signatureType === null || signatureType === '0') return signer;
    if (signatureType !== '1' && signatureType !== '2') throw new HttpError(400, 'signature_type must be 0, 1 or 2');
    const proxies = proxyOf(signer, Number(signatureType) as 1 | 2);
    if (proxies.length === 1) return proxies[0]!;
    if (proxies.length === 0)
      throw new HttpError(400, `no proxy wallet of signature type ${signatureType} is registered for ${signer}`);
    throw new HttpError(
      400,
      `several proxy wallets of signature type ${signatureType} are registered for ${signer}; ask the operator for their balances`,
    );
  };
}

/** What GET /balance-allowance answers for one asset of a holder. */
export function balanceAllowance(balance: Balance, exchanges: readonly string[]) {
  const available = String(balance.available);
  return {
    balance: String(balance.total),
    allowance: available,
    allowances: Object.fromEntries(exchanges.map((e) => [e, available])),
  };
}

/** What the routes that read or move a holder's balances need. */
export interface HolderBalances {
  /** A holder's balance of an asset, as the core has it. */
  balanceOf: (address: string, asset: string) => Promise<Balance>;
  markets: MarketRegistry;
  /** The exchange contracts an allowance is shown for. */
  exchanges: readonly string[];
  /** The proxies of a signer registered for a signature type. */
  proxyOf: (signer: string, signatureType: 1 | 2) => string[];
}

/** `before`: level-2 auth, then a check that balances are whole (425 while shards recover). */
export function balanceRoutes(
  { balanceOf, markets, exchanges, proxyOf }: HolderBalances,
  before: Hook<ApiKeyLocals>[],
): Route<ApiKeyLocals>[] {
  const holder = holderOf(proxyOf);
  // GET /balance-allowance/update asks the real service to re-read the chain; custody here is
  // off-chain and always current, so it answers what GET /balance-allowance does.
  return ['/balance-allowance', '/balance-allowance/update'].map((path) => ({
    method: 'GET',
    path,
    options: { before },
    handler: async (ctx) => {
      const type = ctx.query.get('asset_type') ?? 'COLLATERAL';
      let asset = COLLATERAL;
      if (type === 'CONDITIONAL') {
        asset = ctx.query.get('token_id') ?? '';
        if (markets.byTokenId(asset) === undefined) throw new HttpError(400, 'token_id must name a traded token');
      } else if (type !== 'COLLATERAL') {
        throw new HttpError(400, 'asset_type must be COLLATERAL or CONDITIONAL');
      }
      const address = holder(ctx.locals.apiKey!.address, ctx.query.get('signature_type'));
      return { body: balanceAllowance(await balanceOf(address, asset), exchanges) };
    },
  }));
}

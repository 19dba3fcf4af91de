// Order step 2 of 6 (verify → admit → reserve → match → queue → reply): the core admits a verified
// order when its market trades, its API key is not being deleted, its signer still controls its
// maker, and its id was never used (the replay check: from memory inside the replay window, else
// a ledger lookup, orders/known-orders.ts).

import { ResultCode, type Refusal } from '../../link/result-codes.ts';
import type { VerifiedOrder } from '../../link/core-protocol.ts';
import type { KnownOrders } from '../../orders/known-orders.ts';
import type { ProxyWallets } from '../../markets/proxy-wallets.ts';
import type { TradingCore } from '../../trading-core.ts';
import { refusalOf } from './refusals.ts';

export interface AdmitDeps {
  core: TradingCore;
  known: KnownOrders;
  proxies: ProxyWallets;
  /** API keys being deleted (or deleted): their orders are refused. */
  closedKeys: ReadonlySet<string>;
}

/** Readiness, key and maker checks: the cheap ones, made again after any wait. */
function standing(order: VerifiedOrder, deps: AdmitDeps): Refusal | undefined {
  const notReady = deps.core.notReady(order.market);
  if (notReady !== undefined) return refusalOf(notReady, 'admit');
  if (deps.closedKeys.has(order.apiKey)) return { code: ResultCode.KEY_DELETED };
  const controls =
    order.signatureType === 0
      ? order.maker === order.signer
      : deps.proxies.controls(order.signer, order.maker, order.signatureType as 1 | 2);
  if (!controls) return { code: ResultCode.MAKER_NOT_CONTROLLED, detail: order.maker };
  return undefined;
}

/** Undefined when admitted; a promise only when the replay check needs the ledger. */
export function admit(order: VerifiedOrder, deps: AdmitDeps): Refusal | undefined | Promise<Refusal | undefined> {
  const refused = standing(order, deps);
  if (refused !== undefined) return refused;
  const seen = deps.known.has(order.orderId, order.signedAt);
  if (seen === true) return { code: ResultCode.DUPLICATE };
  if (seen === false) return undefined;
  return seen.then(
    // Trading may have halted, the key been deleted or the proxy moved while the ledger answered.
    (used) => (used ? { code: ResultCode.DUPLICATE } : standing(order, deps)),
    (error: unknown) => refusalOf(error, 'the replay check'),
  );
}

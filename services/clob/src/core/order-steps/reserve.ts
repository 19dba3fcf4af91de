// Order step 3 of 6 (verify → admit → reserve → match → queue → reply): the risk book reserves
// what the order could spend (BUY: collateral at its limit; SELL: its tokens; docs/design/money.md),
// its id counts as used, and the open orders expect it. `undo` gives all of it back when the
// order does not reach the book.

import { Side } from '@pmx/matching';
import { COLLATERAL } from '@pmx/risk';
import { ResultCode, type Refusal } from '../../link/result-codes.ts';
import type { VerifiedOrder } from '../../link/core-protocol.ts';
import type { KnownOrders } from '../../orders/known-orders.ts';
import type { TradingCore } from '../../trading-core.ts';

export interface ReserveDeps {
  core: TradingCore;
  known: KnownOrders;
}

export function reserve(order: VerifiedOrder, deps: ReserveDeps): Refusal | undefined {
  const market = deps.core.risk.market(order.market);
  if (market === undefined) return { code: ResultCode.UNKNOWN_MARKET };
  const asset = order.side === Side.BUY ? COLLATERAL : order.assetId;
  const reserved = deps.core.risk.reserveOrder(order.orderId, order.maker, asset, {
    side: order.side,
    price: order.price,
    size: order.size,
    ticksPerUnit: market.ticksPerUnit,
  });
  if (reserved === 'duplicate') return { code: ResultCode.DUPLICATE };
  if (reserved === 'insufficient') return { code: ResultCode.INSUFFICIENT_BALANCE };
  deps.known.add(order.orderId, order.signedAt);
  deps.core.openOrders.expect(order.orderId, {
    owner: order.apiKey,
    maker: order.maker,
    market: order.market,
    assetId: order.assetId,
  });
  return undefined;
}

/**
 * The order never reached the book: its reservation and intent go. `reusable`: it never reached
 * the ledger either, so the same signed order may come again.
 */
export function undo(order: VerifiedOrder, deps: ReserveDeps, reusable: boolean): void {
  deps.core.risk.release(order.orderId);
  deps.core.openOrders.forgetIntent(order.orderId);
  if (reusable) deps.known.forget(order.orderId);
}

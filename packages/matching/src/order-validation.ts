// Checks a new order against its market before it reaches the book: token, side, price on the
// tick strictly between 0 and 1, size in whole lots above the minimum, type and expiration.

import { LOT, MAX_SIZE, OrderType, Side, type PlaceOrder, type RejectReason } from './types.ts';

/** Owners index a dense array, so the caller interns addresses to small integers. */
export const MAX_OWNER = 2 ** 26;

export function validateOrder(order: PlaceOrder, ticks: number, minSize: number, now: number): RejectReason | null {
  if (order.token !== 0 && order.token !== 1) return 'invalid-token';
  if (order.side !== Side.BUY && order.side !== Side.SELL) return 'invalid-side';
  if (!Number.isInteger(order.price) || order.price <= 0 || order.price >= ticks) return 'invalid-price';
  if (!Number.isInteger(order.size) || order.size <= 0 || order.size > MAX_SIZE || order.size % LOT !== 0) {
    return 'invalid-size';
  }
  if (order.size < minSize) return 'size-below-minimum';
  if (!(order.owner >= 0 && order.owner <= MAX_OWNER && Number.isInteger(order.owner))) {
    throw new Error(`owner must be an interned integer 0…${MAX_OWNER}, got ${order.owner}`);
  }
  switch (order.orderType) {
    case OrderType.GTC:
    case OrderType.FOK:
    case OrderType.FAK:
      break;
    case OrderType.GTD:
      if (typeof order.expiresAt !== 'number' || !Number.isFinite(order.expiresAt) || order.expiresAt <= now) {
        return 'invalid-expiration';
      }
      break;
    default:
      return 'invalid-order-type';
  }
  if (order.postOnly && order.orderType !== OrderType.GTC && order.orderType !== OrderType.GTD) return 'post-only-type';
  return null;
}

// What an order can spend, to the base unit: a BUY reserves collateral at its own limit,
// a SELL reserves the tokens it offers.

import { Side } from '@pmx/matching';

export interface OrderTerms {
  side: Side;
  /** Limit price in ticks of the order's own token. */
  price: number;
  /** Size in base units of the token (a whole number of lots). */
  size: number;
  ticksPerUnit: number;
}

/** Base units of collateral for `size` tokens at `price` ticks; exact because sizes are whole lots. */
export function collateralFor(size: number, price: number, ticksPerUnit: number): number {
  const value = (size * price) / ticksPerUnit;
  if (!Number.isSafeInteger(value)) throw new Error(`collateral for ${size} at ${price}/${ticksPerUnit} is not a whole base unit`);
  return value;
}

/** A BUY's limit for its reservation (see RiskBook.reserve); a SELL has none. */
export function buyLimit(terms: OrderTerms): { price: number; ticksPerUnit: number } | undefined {
  return terms.side === Side.BUY ? { price: terms.price, ticksPerUnit: terms.ticksPerUnit } : undefined;
}

/** The amount an order must have reserved: collateral for a BUY, tokens for a SELL. */
export function orderCost(terms: OrderTerms): number {
  return terms.side === Side.BUY ? collateralFor(terms.size, terms.price, terms.ticksPerUnit) : terms.size;
}

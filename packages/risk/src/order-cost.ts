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

/**
 * Base units of collateral for `size` base units of a token at `price` ticks, exactly. Sizes are
 * whole lots and every tick size's ticksPerUnit divides a lot, so `size / ticksPerUnit` is a whole
 * number and each step stays an integer below 2^53 (the product `size * price` would not: up to
 * 10^15 × 9,999). Any other size is computed in BigInt and must come out whole.
 */
export function collateralFor(size: number, price: number, ticksPerUnit: number): number {
  if (
    Number.isSafeInteger(size) &&
    Number.isSafeInteger(price) &&
    Number.isSafeInteger(ticksPerUnit) &&
    ticksPerUnit > 0
  ) {
    if (size % ticksPerUnit === 0) return (size / ticksPerUnit) * price;
    const product = BigInt(size) * BigInt(price);
    const value = Number(product / BigInt(ticksPerUnit));
    if (product % BigInt(ticksPerUnit) === 0n && Number.isSafeInteger(value)) return value;
  }
  throw new Error(`collateral for ${size} at ${price}/${ticksPerUnit} is not a whole base unit`);
}

/** A BUY's limit for its reservation (see RiskBook.reserve); a SELL has none. */
export function buyLimit(terms: OrderTerms): { price: number; ticksPerUnit: number } | undefined {
  return terms.side === Side.BUY ? { price: terms.price, ticksPerUnit: terms.ticksPerUnit } : undefined;
}

/** The amount an order must have reserved: collateral for a BUY, tokens for a SELL. */
export function orderCost(terms: OrderTerms): number {
  return terms.side === Side.BUY ? collateralFor(terms.size, terms.price, terms.ticksPerUnit) : terms.size;
}

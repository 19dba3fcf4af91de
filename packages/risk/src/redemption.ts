// What a redemption pays, to the base unit: tokens × payout per whole token, rounded down once
// over both tokens (1 base unit of each at 50/50 pays 1), in bigint so no product loses a digit.

/** Base units per whole token: payouts are per whole token. */
const UNIT = 1_000_000n;

export interface RedemptionValue {
  /** Collateral paid for both tokens. */
  total: number;
  /** The part of it each token brings (token0 rounded down, token1 the rest), for cost bases. */
  perToken: [number, number];
}

export function redemptionValue(
  tokens: readonly [number, number],
  payouts: readonly [number, number],
): RedemptionValue {
  const scaled = [0, 1].map((i) => BigInt(tokens[i]!) * BigInt(payouts[i]!));
  const total = (scaled[0]! + scaled[1]!) / UNIT;
  const first = scaled[0]! / UNIT;
  return { total: Number(total), perToken: [Number(first), Number(total - first)] };
}

/** A split's or a merge's collateral per token, for cost bases: token0 half rounded down, token1 the rest. */
export function halves(amount: number): [number, number] {
  const first = Math.floor(amount / 2);
  return [first, amount - first];
}

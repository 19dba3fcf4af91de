// The numbers of a position, computed exactly in integers from the ledger's average-cost fields
// (docs/reference/data.md, Fields): base units (10^-6) in, fixed-point integers out, each with the
// scale it is shown at. Values are cut toward zero to 4 decimals; token counts and prices stay exact.

/** What the ledger keeps for one address and outcome token (migration 003 `positions`). */
export interface LedgerPosition {
  /** Token base units held. */
  size: bigint;
  /** Collateral base units paid for what is held. */
  costBasis: bigint;
  /** Collateral base units gained (or lost) on every reduction: sells, merges, redemptions. */
  realizedPnl: bigint;
  /** Cost basis of the tokens reduced so far. */
  closedCost: bigint;
  /** Token base units bought over the position's life. */
  totalBought: bigint;
}

/** Each figure as an integer at its scale: SCALE_TOKENS (6) or SCALE_VALUE (4) decimals. */
export interface Figures {
  size: bigint;
  avgPrice: bigint;
  initialValue: bigint;
  currentValue: bigint;
  cashPnl: bigint;
  percentPnl: bigint;
  totalBought: bigint;
  realizedPnl: bigint;
  percentRealizedPnl: bigint;
  /** Collateral base units per whole token, i.e. the price at 6 decimals. */
  curPrice: bigint;
}

export const SCALE_TOKENS = 6;
export const SCALE_VALUE = 4;
/** Figures with these names are at SCALE_TOKENS; the rest at SCALE_VALUE. */
export const TOKEN_SCALED: ReadonlySet<keyof Figures> = new Set(['size', 'totalBought', 'curPrice']);

const UNIT = 1_000_000n;
/** Base units (10^-6) → value units (10^-4). */
const BASE_PER_VALUE = 100n;

/**
 * A position still held (size > 0). `price` is collateral base units per whole token.
 * avgPrice = costBasis / size; initialValue = size × avgPrice (= costBasis);
 * currentValue = size × price; cashPnl = currentValue − initialValue as shown (the three agree on
 * the wire); percentPnl = exact PnL / costBasis × 100; percentRealizedPnl = realizedPnl /
 * closedCost × 100 (0 where the divisor is 0).
 */
export function openFigures(position: LedgerPosition, price: bigint): Figures {
  const { size, costBasis } = position;
  const initialValue = costBasis / BASE_PER_VALUE;
  // size × price is in base units × base units per token: 10^-12; at 4 decimals, / 10^8.
  const currentValue = (size * price) / (UNIT * BASE_PER_VALUE);
  return {
    size,
    avgPrice: size > 0n ? (costBasis * 10_000n) / size : 0n,
    initialValue,
    currentValue,
    cashPnl: currentValue - initialValue,
    // (size × price / 10^6 − cost) / cost × 100, at 4 decimals: (size × price − cost × 10^6) / cost.
    percentPnl: costBasis > 0n ? (size * price - costBasis * UNIT) / costBasis : 0n,
    ...realized(position),
    curPrice: price,
  };
}

/**
 * A position fully reduced (size 0): nothing held, so nothing of value; avgPrice is what the
 * reduced tokens cost on average, closedCost / totalBought (0 when none were bought).
 */
export function closedFigures(position: LedgerPosition, price: bigint): Figures {
  return {
    size: 0n,
    avgPrice: position.totalBought > 0n ? (position.closedCost * 10_000n) / position.totalBought : 0n,
    initialValue: 0n,
    currentValue: 0n,
    cashPnl: 0n,
    percentPnl: 0n,
    ...realized(position),
    curPrice: price,
  };
}

function realized(position: LedgerPosition): Pick<Figures, 'totalBought' | 'realizedPnl' | 'percentRealizedPnl'> {
  const { realizedPnl, closedCost } = position;
  return {
    totalBought: position.totalBought,
    realizedPnl: realizedPnl / BASE_PER_VALUE,
    // realized / closedCost × 100 at 4 decimals: × 10^6.
    percentRealizedPnl: closedCost > 0n ? (realizedPnl * UNIT) / closedCost : 0n,
  };
}

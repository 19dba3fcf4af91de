// Turns a signed order's amounts into engine terms: a limit price in ticks and a size in base
// units (docs/design/units-and-prices.md). BUY: price = makerAmount / takerAmount, size = takerAmount.
// SELL: price = takerAmount / makerAmount, size = makerAmount.

export const LOT = 10_000n;
export const MAX_SIZE = 1_000_000_000_000_000n;

export type TermsProblem =
  'price-off-tick' | 'price-out-of-range' | 'size-not-whole-lots' | 'size-too-large' | 'size-zero';

export interface OrderTerms {
  /** Limit in ticks of the order's own token. */
  price: number;
  /** Base units of the token. */
  size: number;
}

export interface TermsInput {
  side: 'BUY' | 'SELL';
  makerAmount: bigint;
  takerAmount: bigint;
  ticksPerUnit: number;
  /**
   * A market order (FOK/FAK) may imply a price between ticks: it becomes a limit at the nearest
   * tick no worse for the signer (down for a BUY, up for a SELL), and its size is cut to whole lots.
   */
  marketable: boolean;
}

export type TermsResult = { ok: true; terms: OrderTerms } | { ok: false; problem: TermsProblem };

export function orderTerms(input: TermsInput): TermsResult {
  const n = BigInt(input.ticksPerUnit);
  const [collateral, tokens] =
    input.side === 'BUY' ? [input.makerAmount, input.takerAmount] : [input.takerAmount, input.makerAmount];
  const numerator = collateral * n;
  let price = numerator / tokens;
  const exact = numerator % tokens === 0n;
  if (!exact) {
    if (!input.marketable) return { ok: false, problem: 'price-off-tick' };
    if (input.side === 'SELL') price += 1n;
  }
  if (price <= 0n || price >= n) return { ok: false, problem: 'price-out-of-range' };
  let size = tokens;
  if (size % LOT !== 0n) {
    if (!input.marketable) return { ok: false, problem: 'size-not-whole-lots' };
    size -= size % LOT;
  }
  if (size === 0n) return { ok: false, problem: 'size-zero' };
  if (size > MAX_SIZE) return { ok: false, problem: 'size-too-large' };
  return { ok: true, terms: { price: Number(price), size: Number(size) } };
}

/** The price an order's amounts imply, as a decimal string for error messages (up to 6 places). */
export function impliedPrice(side: 'BUY' | 'SELL', makerAmount: bigint, takerAmount: bigint): string {
  const [collateral, tokens] = side === 'BUY' ? [makerAmount, takerAmount] : [takerAmount, makerAmount];
  const micros = (collateral * 1_000_000n) / tokens;
  const digits = micros.toString().padStart(7, '0');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  return `${digits.slice(0, -6)}${fraction ? `.${fraction}` : ''}`;
}

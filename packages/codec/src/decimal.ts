// Integer ↔ decimal-string conversions for the wire: prices in ticks, midpoints in half-ticks,
// amounts in base units (6 decimals). Exact: only integer arithmetic and string work.

export const BASE_DECIMALS = 6;
const PRICE_DECIMALS = 4; // the finest tick is 0.0001

/** `value / 10^decimals` as a trimmed decimal string ("0.57", "12", "0.0025"). */
export function scaledToDecimal(value: bigint | number, decimals: number): string {
  let v = BigInt(value);
  const negative = v < 0n;
  if (negative) v = -v;
  const digits = v.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `value / 10^decimals` as a JSON number, for the fields the contract types as numbers: the
 * nearest double to the exact decimal (so 12.3456 prints as 12.3456).
 */
export function scaledToNumber(value: bigint | number, decimals: number): number {
  return Number(scaledToDecimal(value, decimals));
}

/** A price of `ticks` ticks with `ticksPerUnit` ticks to one unit of collateral. */
export function formatPrice(ticks: number, ticksPerUnit: number): string {
  return scaledToDecimal(ticks * (10 ** PRICE_DECIMALS / ticksPerUnit), PRICE_DECIMALS);
}

/** A midpoint given as bid + ask in ticks. */
export function formatHalfTicks(halfTicks: number, ticksPerUnit: number): string {
  return scaledToDecimal(halfTicks * (10 ** PRICE_DECIMALS / ticksPerUnit) * 5, PRICE_DECIMALS + 1);
}

/** A trade's price: notional / size (both base units), exact to 6 decimals (rounded half up beyond). */
export function averagePrice(notional: number, size: number): string {
  const micros = (BigInt(notional) * 2_000_000n + BigInt(size)) / (2n * BigInt(size));
  return scaledToDecimal(micros, 6);
}

/** Base units (6 decimals) as a token or collateral amount ("10.5"). */
export function formatUnits(baseUnits: number | bigint): string {
  return scaledToDecimal(baseUnits, BASE_DECIMALS);
}

/** Parses a decimal string with at most `decimals` fraction digits into a scaled integer, or null. */
export function parseDecimal(text: string, decimals: number): bigint | null {
  const match = /^(\d{1,30})(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

/** Ticks for a decimal price on a tick grid, or null when it is not a whole number of ticks. */
export function parsePrice(text: string, ticksPerUnit: number): number | null {
  const scaled = parseDecimal(text, PRICE_DECIMALS);
  if (scaled === null) return null;
  const step = BigInt(10 ** PRICE_DECIMALS / ticksPerUnit);
  return scaled % step === 0n ? Number(scaled / step) : null;
}

/** A positive integer in decimal digits (a signed order's amount), or null. */
export function parseBaseUnits(text: unknown): bigint | null {
  if (typeof text !== 'string' || !/^[0-9]{1,78}$/.test(text)) return null;
  const value = BigInt(text);
  return value > 0n ? value : null;
}

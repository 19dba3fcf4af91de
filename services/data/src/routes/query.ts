// The account-data endpoints' query parameters, read and checked once: only the listed names
// (else `unknown_field: <name>`), required ones present (`missing_field: <name>`), each value in
// its bounds (`invalid_field: <name> …`, naming the parameter). Errors are the contract's simple
// shape with a 400.

import { HttpError, type RequestContext } from '@pmx/http';

/** One query: the value of each listed parameter, undefined when absent or empty. */
export type Params<N extends string> = Record<N, string | undefined>;

export function readParams<N extends string>(
  ctx: RequestContext<any>,
  names: readonly N[],
  required: readonly N[] = [],
): Params<N> {
  const allowed = new Set<string>(names);
  const out = {} as Params<N>;
  const seen = new Set<string>();
  for (const [name, value] of ctx.query) {
    if (!allowed.has(name)) throw new HttpError(400, `unknown_field: ${name}`);
    if (seen.has(name)) throw invalid(name, 'is given more than once');
    seen.add(name);
    out[name as N] = value === '' ? undefined : value;
  }
  for (const name of required) if (out[name] === undefined) throw new HttpError(400, `missing_field: ${name}`);
  return out;
}

export function invalid(name: string, detail: string): HttpError {
  return new HttpError(400, `invalid_field: ${name} ${detail}`);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CONDITION_ID = /^0x[0-9a-fA-F]{1,64}$/;

/** A wallet address, lower-case (as the ledger keeps it). */
export function address(name: string, value: string): string {
  if (!ADDRESS.test(value)) throw invalid(name, 'must be a wallet address: 0x and 40 hex digits');
  return value.toLowerCase();
}

/** Comma-separated condition ids, lower-case, each once, at most `max`. */
export function conditionIds(name: string, value: string, max: number): string[] {
  const ids = value.split(',').map((id) => id.trim());
  if (ids.some((id) => !CONDITION_ID.test(id)))
    throw invalid(name, 'must be condition ids (0x and up to 64 hex digits) separated by commas');
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length > max) throw invalid(name, `takes at most ${max} condition ids, got ${unique.length}`);
  return unique;
}

/** A whole number from 0 to max; the default when absent. */
export function integer(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,12}$/.test(value) || Number(value) > max)
    throw invalid(name, `must be a whole number from 0 to ${max.toLocaleString('en-US')}`);
  return Number(value);
}

/** Tokens held, as a non-negative decimal; in base units, rounded up (a bound on whole base units). */
export function tokenAmount(name: string, value: string | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  const match = /^(\d{1,15})(?:\.(\d{1,30}))?$/.exec(value);
  if (match === null) throw invalid(name, 'must be a non-negative number of tokens, such as 1 or 0.5');
  const fraction = match[2] ?? '';
  const units = BigInt(match[1]! + fraction.slice(0, 6).padEnd(6, '0'));
  return /[1-9]/.test(fraction.slice(6)) ? units + 1n : units;
}

/** true filters; false and absent do not. */
export function flag(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const word = value.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  throw invalid(name, 'must be true or false');
}

/** One of `choices` (any case); the default when absent. */
export function choice<C extends string>(name: string, value: string | undefined, choices: readonly C[], fallback: C): C {
  if (value === undefined) return fallback;
  const upper = value.toUpperCase();
  const found = choices.find((c) => c === upper);
  if (found === undefined) throw invalid(name, `must be one of ${choices.join(', ')}`);
  return found;
}

export type Direction = 'ASC' | 'DESC';

/** ASC or DESC (also ascending / descending, any case); DESC when absent. */
export function direction(name: string, value: string | undefined): Direction {
  if (value === undefined) return 'DESC';
  const word = value.toUpperCase();
  if (word === 'ASC' || word === 'ASCENDING') return 'ASC';
  if (word === 'DESC' || word === 'DESCENDING') return 'DESC';
  throw invalid(name, 'must be ASC or DESC');
}

export const MAX_TITLE_CHARACTERS = 100;

/** A title substring, lower-case for a case-insensitive match; at most 100 characters. */
export function titleFilter(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if ([...value].length > MAX_TITLE_CHARACTERS) throw invalid(name, `must be at most ${MAX_TITLE_CHARACTERS} characters`);
  return value.toLowerCase();
}

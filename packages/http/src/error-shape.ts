// Renders an error into one of the contract's two body shapes: simple `{error}` (trading,
// order book, ledger, account data) or typed `{type, error}` (catalog). A server picks one.
import type { TypedErrorType } from './http-error.ts';

export type ErrorShape = 'simple' | 'typed';

/**
 * The contract names only two typed `type` values, so pmx never invents a third: 404 is
 * 'not found error' and every other status (including 5xx) is 'bad request' unless the
 * thrower chose otherwise.
 */
export function errorBody(shape: ErrorShape, status: number, message: string, type?: TypedErrorType): string {
  if (shape === 'simple') return JSON.stringify({ error: message });
  return JSON.stringify({ type: type ?? (status === 404 ? 'not found error' : 'bad request'), error: message });
}

// Level-2 (API key) auth: HMAC-SHA256 over timestamp + METHOD + path + raw body, keyed by the
// base64url-decoded secret. We sign as the official client does and accept hex or base64.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface L2Request {
  /** The timestamp header as sent (seconds). */
  timestamp: string | number;
  method: string;
  /** Request path without the query string, e.g. `/order`. */
  path: string;
  /** The raw body exactly as received (bytes or string); absent or empty for none. */
  body?: string | Uint8Array;
}

const HEX_SIGNATURE = /^(?:0x)?([0-9a-fA-F]{64})$/;
/** Either alphabet (the official client sends URL-safe), padded or not. */
const BASE64_SIGNATURE = /^[A-Za-z0-9+/_-]{43}=?$/;

function l2Digest(secret: string, { timestamp, method, path, body }: L2Request): Buffer {
  // 'base64' decoding in Node takes both alphabets, with or without padding, as the client does.
  const hmac = createHmac('sha256', Buffer.from(secret, 'base64'));
  hmac.update(`${timestamp}${method.toUpperCase()}${path}`);
  if (body !== undefined && body.length > 0) hmac.update(body);
  return hmac.digest();
}

/** The signature header the official client sends: URL-safe base64 with `=` padding. */
export function signL2(
  secret: string,
  timestamp: string | number,
  method: string,
  path: string,
  body?: string | Uint8Array,
): string {
  return l2Digest(secret, { timestamp, method, path, body }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * The 32 bytes a level-2 signature header carries: 64 hex digits (with or without `0x`), or
 * base64 of either alphabet with or without padding; undefined for anything else.
 */
export function parseL2Signature(signature: string): Buffer | undefined {
  if (typeof signature !== 'string') return undefined;
  const hex = HEX_SIGNATURE.exec(signature);
  if (hex !== null) return Buffer.from(hex[1]!, 'hex');
  if (BASE64_SIGNATURE.test(signature)) return Buffer.from(signature, 'base64');
  return undefined;
}

/**
 * True when `signature` — the header (see parseL2Signature), or the bytes it parsed to — is the
 * HMAC of the request under `secret`. Compared in constant time.
 */
export function verifyL2(secret: string, request: L2Request, signature: string | Buffer): boolean {
  const provided = Buffer.isBuffer(signature) ? signature : parseL2Signature(signature);
  if (provided === undefined || provided.length !== 32) return false;
  return timingSafeEqual(l2Digest(secret, request), provided);
}

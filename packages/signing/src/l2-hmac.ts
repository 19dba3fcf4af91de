// Level-2 (API key) auth: HMAC-SHA256 over timestamp + METHOD + path + raw body, keyed by the
// base64url-decoded secret. We sign as the official client does and accept hex or base64url.
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

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const BASE64URL_SIGNATURE = /^[A-Za-z0-9_-]{43}=?$/;

function l2Digest(secret: string, { timestamp, method, path, body }: L2Request): Buffer {
  // 'base64' decoding in Node takes both alphabets, with or without padding, as the client does.
  const hmac = createHmac('sha256', Buffer.from(secret, 'base64'));
  hmac.update(`${timestamp}${method.toUpperCase()}${path}`);
  if (body !== undefined && body.length > 0) hmac.update(body);
  return hmac.digest();
}

/** The signature header the official client sends: URL-safe base64 with `=` padding. */
export function signL2(secret: string, timestamp: string | number, method: string, path: string, body?: string | Uint8Array): string {
  return l2Digest(secret, { timestamp, method, path, body }).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * True when `signature` is the HMAC of the request under `secret`, given as 64 hex digits or as
 * URL-safe base64 with or without padding. Compared in constant time.
 */
export function verifyL2(secret: string, request: L2Request, signature: string): boolean {
  let provided: Buffer;
  if (typeof signature !== 'string') return false;
  if (HEX_SIGNATURE.test(signature)) provided = Buffer.from(signature, 'hex');
  else if (BASE64URL_SIGNATURE.test(signature)) provided = Buffer.from(signature, 'base64url');
  else return false;
  if (provided.length !== 32) return false;
  return timingSafeEqual(l2Digest(secret, request), provided);
}

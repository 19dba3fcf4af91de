// Hex <-> bytes without intermediate strings or arrays: decoding validates and writes straight into
// a caller's buffer, so the digest path allocates nothing per field.
import { SigningInputError } from './signing-input-error.ts';

const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) NIBBLE[48 + c] = c;
for (let c = 0; c < 6; c++) {
  NIBBLE[65 + c] = 10 + c;
  NIBBLE[97 + c] = 10 + c;
}

/**
 * Decodes `0x` + exactly `2 * byteLength` hex digits (either case) into `out[offset…]`.
 * Throws SigningInputError naming `field` when the text is not that.
 */
export function decodeHexInto(hex: unknown, out: Uint8Array, offset: number, byteLength: number, field: string): void {
  if (
    typeof hex !== 'string' ||
    hex.length !== 2 + 2 * byteLength ||
    hex.charCodeAt(0) !== 48 ||
    (hex.charCodeAt(1) | 32) !== 120
  ) {
    throw new SigningInputError(field, `expected 0x followed by ${2 * byteLength} hex digits`);
  }
  for (let i = 0, p = 2; i < byteLength; i++, p += 2) {
    const a = hex.charCodeAt(p);
    const b = hex.charCodeAt(p + 1);
    const hi = a < 128 ? NIBBLE[a]! : -1;
    const lo = b < 128 ? NIBBLE[b]! : -1;
    if ((hi | lo) < 0) throw new SigningInputError(field, `not a hex digit at position ${hi < 0 ? p : p + 1}`);
    out[offset + i] = (hi << 4) | lo;
  }
}

/** Lowercase `0x…` hex of the bytes. */
export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

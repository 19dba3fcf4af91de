// Writes one ABI-encoded 32-byte word (uint256, uint8, address, bytes32) into a reusable buffer,
// validating the client's text on the way: the building blocks of every EIP-712 struct we hash.
import { decodeHexInto } from './hex-codec.ts';
import { SigningInputError } from './signing-input-error.ts';

/** A uint as it may arrive in JSON: decimal string (any size), safe integer number, or bigint. */
export type UintInput = string | number | bigint;

const MAX_UINT256 = (1n << 256n) - 1n;
const MASK_64 = (1n << 64n) - 1n;
/** Decimal strings up to this many digits fit in a double exactly (< 2^53). */
const SAFE_DIGITS = 15;
const TWO_32 = 2 ** 32;

/** Writes a uint256 big-endian into `out[offset…offset+32]`. */
export function writeUint256(value: unknown, out: Uint8Array, view: DataView, offset: number, field: string): void {
  if (typeof value === 'string') {
    const n = value.length;
    if (n === 0 || n > 78) throw new SigningInputError(field, 'expected a decimal integer string of 1 to 78 digits');
    let small = 0;
    for (let i = 0; i < n; i++) {
      const d = value.charCodeAt(i) - 48;
      if (d < 0 || d > 9) throw new SigningInputError(field, 'expected only decimal digits');
      if (n <= SAFE_DIGITS) small = small * 10 + d;
    }
    if (n <= SAFE_DIGITS) return writeSmall(small, out, view, offset);
    return writeBig(BigInt(value), out, view, offset, field);
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new SigningInputError(field, 'expected a non-negative safe integer (send larger values as strings)');
    return writeSmall(value, out, view, offset);
  }
  if (typeof value === 'bigint') return writeBig(value, out, view, offset, field);
  throw new SigningInputError(field, 'expected a decimal integer string');
}

function writeSmall(value: number, out: Uint8Array, view: DataView, offset: number): void {
  out.fill(0, offset, offset + 24);
  view.setUint32(offset + 24, Math.floor(value / TWO_32));
  view.setUint32(offset + 28, value >>> 0);
}

function writeBig(value: bigint, out: Uint8Array, view: DataView, offset: number, field: string): void {
  if (value < 0n || value > MAX_UINT256) throw new SigningInputError(field, 'out of uint256 range');
  view.setBigUint64(offset + 24, value & MASK_64);
  view.setBigUint64(offset + 16, (value >> 64n) & MASK_64);
  view.setBigUint64(offset + 8, (value >> 128n) & MASK_64);
  view.setBigUint64(offset, value >> 192n);
}

/** Writes a uint8 (number or decimal string 0…255) as a 32-byte word. */
export function writeUint8(value: unknown, out: Uint8Array, offset: number, field: string): void {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 255) throw new SigningInputError(field, 'expected an integer from 0 to 255');
  out.fill(0, offset, offset + 31);
  out[offset + 31] = n;
}

/** Writes a `0x` + 40 hex address (any case; the checksum is not enforced: it is not signed) as a word. */
export function writeAddress(value: unknown, out: Uint8Array, offset: number, field: string): void {
  out.fill(0, offset, offset + 12);
  decodeHexInto(value, out, offset + 12, 20, field);
}

/** Writes a `0x` + 64 hex bytes32. */
export function writeBytes32(value: unknown, out: Uint8Array, offset: number, field: string): void {
  decodeHexInto(value, out, offset, 32, field);
}

// Splits a 65-byte `r ‖ s ‖ v` signature and rejects what the exchange contract would: bad length,
// v other than 27/28/0/1, r or s out of range, and high s (EIP-2, as OpenZeppelin's ECDSA does).
import { decodeHexInto } from './hex-codec.ts';
import { SigningInputError } from './signing-input-error.ts';

/** secp256k1 group order n, big-endian. */
const CURVE_ORDER = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex');
/** floor(n / 2): the largest s a low-s signature may carry. */
const HALF_ORDER = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');

/** -1, 0 or 1 as the 32-byte big-endian number at `bytes[offset…]` is below, equal to or above `limit`. */
function compareWord(bytes: Uint8Array, offset: number, limit: Uint8Array): number {
  for (let i = 0; i < 32; i++) {
    const d = bytes[offset + i]! - limit[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function isZeroWord(bytes: Uint8Array, offset: number): boolean {
  for (let i = 0; i < 32; i++) if (bytes[offset + i] !== 0) return false;
  return true;
}

const scratch = new Uint8Array(65);

/**
 * Writes `r ‖ s` (64 bytes) into `rsOut` and returns the recovery id (0 or 1).
 * `signature` is `0x` + 130 hex digits or 65 raw bytes. Throws SigningInputError when malformed.
 */
export function parseSignatureInto(signature: unknown, rsOut: Uint8Array, field = 'signature'): 0 | 1 {
  let v: number;
  if (signature instanceof Uint8Array) {
    if (signature.length !== 65) throw new SigningInputError(field, 'expected 65 bytes');
    rsOut.set(signature.subarray(0, 64));
    v = signature[64]!;
  } else {
    decodeHexInto(signature, scratch, 0, 65, field);
    rsOut.set(scratch.subarray(0, 64));
    v = scratch[64]!;
  }
  if (v >= 27) v -= 27;
  if (v !== 0 && v !== 1) throw new SigningInputError(field, 'v must be 27, 28, 0 or 1');
  if (isZeroWord(rsOut, 0) || compareWord(rsOut, 0, CURVE_ORDER) >= 0)
    throw new SigningInputError(field, 'r out of range');
  if (isZeroWord(rsOut, 32)) throw new SigningInputError(field, 's out of range');
  if (compareWord(rsOut, 32, HALF_ORDER) > 0) throw new SigningInputError(field, 'high s (not canonical, EIP-2)');
  return v;
}

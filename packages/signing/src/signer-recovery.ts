// Who signed a digest: picks the recovery backend once (native libsecp256k1, else noble), logs which,
// and turns the recovered key into an address. Addresses come back lowercase `0x…`; compare with `sameAddress`.
import { keccak256 } from './keccak.ts';
import { isMainThread } from 'node:worker_threads';
import { toHex } from './hex-codec.ts';
import { loadNativeRecovery } from './native-recovery.ts';
import { nobleRecovery } from './noble-recovery.ts';
import type { RecoveryBackend, RecoveryBackendName } from './recovery-backend.ts';
import { parseSignatureInto } from './signature-parts.ts';
import { SigningInputError } from './signing-input-error.ts';
import { logger } from '@pmx/config';

const nativeOrError = loadNativeRecovery();

/** Both implementations; `native` is null when the addon failed to load on this machine. */
export const recoveryBackends: { readonly native: RecoveryBackend | null; readonly noble: RecoveryBackend } = {
  native: nativeOrError instanceof Error ? null : nativeOrError,
  noble: nobleRecovery,
};

const activeBackend: RecoveryBackend = recoveryBackends.native ?? recoveryBackends.noble;

/** Which implementation `recoverAddress` uses by default in this process. */
export const signatureBackend: RecoveryBackendName = activeBackend.name;

if (isMainThread) {
  if (nativeOrError instanceof Error) {
    logger('signing').warn(
      `native secp256k1 unavailable (${nativeOrError.message.split('\n')[0]}); using the pure-JS noble-curves backend`,
    );
  } else {
    logger('signing').debug('signature recovery backend: native-secp256k1');
  }
}

const rs = new Uint8Array(64);

/**
 * The address (lowercase `0x…`) whose key made `signature` (65 bytes `r ‖ s ‖ v`, hex or raw) over
 * the 32-byte `digest`, or null when the signature recovers no key. Throws SigningInputError for a
 * malformed signature, including a high-s one, which the exchange contract would refuse.
 */
export function recoverAddress(
  digest: Uint8Array,
  signature: string | Uint8Array,
  backend: RecoveryBackend = activeBackend,
): string | null {
  if (!(digest instanceof Uint8Array) || digest.length !== 32)
    throw new SigningInputError('digest', 'expected 32 bytes');
  const recovery = parseSignatureInto(signature, rs);
  const publicKey = backend.recoverPublicKey(rs, recovery, digest);
  return publicKey === null ? null : publicKeyToAddress(publicKey);
}

/** The address of an uncompressed public key: the last 20 bytes of keccak(X ‖ Y). */
export function publicKeyToAddress(publicKey: Uint8Array): string {
  return toHex(keccak256(publicKey.subarray(1, 65)).subarray(12));
}

/** Case-insensitive address equality (checksummed, lowercase or mixed input). */
export function sameAddress(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}

// Public-key recovery through libsecp256k1 (npm `secp256k1`, a native addon). Loaded from its
// `bindings` entry on purpose: the package's main entry silently swaps in slow pure JS when the addon is missing.
import { createRequire } from 'node:module';
import type { RecoveryBackend } from './recovery-backend.ts';

interface NativeSecp256k1 {
  ecdsaRecover(
    signature: Uint8Array,
    recid: number,
    msg32: Uint8Array,
    compressed: boolean,
    output?: Uint8Array,
  ): Uint8Array;
}

/** The native backend, or the reason it could not be loaded. */
export function loadNativeRecovery(): RecoveryBackend | Error {
  let native: NativeSecp256k1;
  try {
    native = createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  const output = new Uint8Array(65);
  return {
    name: 'native-secp256k1',
    recoverPublicKey(rs, recovery, digest) {
      try {
        return native.ecdsaRecover(rs, recovery, digest, false, output);
      } catch {
        return null; // r is not the x of any curve point, or the key is at infinity
      }
    },
  };
}

// Public-key recovery in pure JS through @noble/curves: the fallback when the native addon does not load.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { RecoveryBackend } from './recovery-backend.ts';

export const nobleRecovery: RecoveryBackend = {
  name: 'noble-curves',
  recoverPublicKey(rs, recovery, digest) {
    try {
      return secp256k1.Signature.fromBytes(rs, 'compact')
        .addRecoveryBit(recovery)
        .recoverPublicKey(digest)
        .toBytes(false);
    } catch {
      return null;
    }
  },
};

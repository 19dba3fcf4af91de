// The shape both secp256k1 recovery implementations share, so callers and benches can pick one.

export type RecoveryBackendName = 'native-secp256k1' | 'noble-curves';

export interface RecoveryBackend {
  readonly name: RecoveryBackendName;
  /**
   * The uncompressed public key (65 bytes, `04 ‖ X ‖ Y`) for a parsed signature over a 32-byte
   * digest, or null when none exists. The result may be a shared buffer valid until the next call.
   */
  recoverPublicKey(rs: Uint8Array, recovery: 0 | 1, digest: Uint8Array): Uint8Array | null;
}

// Piscina worker body for the verify pool: one batch in, one result per order out.
import { verifyOrders, type VerifyBatch, type VerifyResult } from './order-verification.ts';
import type { RecoveryBackendName } from './recovery-backend.ts';
import { signatureBackend } from './signer-recovery.ts';

export default function verifyBatch(batch: VerifyBatch): VerifyResult[] {
  return verifyOrders(batch);
}

/** Which recovery backend loaded in this worker (workers do not log it themselves). */
export function workerBackend(): RecoveryBackendName {
  return signatureBackend;
}

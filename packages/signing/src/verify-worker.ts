// Piscina worker body for the verify pool: one batch in, one result per order out.
import { verifyOrders, type VerifyBatch, type VerifyResult } from './order-verification.ts';
import { keccakBackend, type KeccakBackendName } from './keccak.ts';
import type { RecoveryBackendName } from './recovery-backend.ts';
import { signatureBackend } from './signer-recovery.ts';

export default function verifyBatch(batch: VerifyBatch): VerifyResult[] {
  return verifyOrders(batch);
}

export interface WorkerBackends {
  recovery: RecoveryBackendName;
  keccak: KeccakBackendName;
}

/** Which recovery and keccak backends loaded in this worker (workers do not log them themselves). */
export function workerBackend(): WorkerBackends {
  return { recovery: signatureBackend, keccak: keccakBackend };
}

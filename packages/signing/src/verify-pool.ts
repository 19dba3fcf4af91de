// A pool of worker threads that digest and recover order signatures off the main thread. Workers
// inherit the process's node flags (tsx's loader added where it is not preloaded: workerExecArgv).
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { workerExecArgv } from '@pmx/config';
import type { VerifyBatch, VerifyResult } from './order-verification.ts';
import type { RecoveryBackendName } from './recovery-backend.ts';

export interface VerifyPoolOptions {
  /** Worker threads, started up front. Default: the machine's available parallelism. */
  threads?: number;
}

export interface VerifyPool {
  readonly threads: number;
  /** Digests and recovers a batch on some worker; results align with `batch.items`. */
  verify(batch: VerifyBatch): Promise<VerifyResult[]>;
  /** The recovery backend a worker loaded (native unless its addon failed there). */
  workerBackend(): Promise<RecoveryBackendName>;
  /** Batches waiting for a free worker. */
  readonly queued: number;
  destroy(): Promise<void>;
}

export function createVerifyPool(options: VerifyPoolOptions = {}): VerifyPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const pool = new Piscina({
    filename: new URL('./verify-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    execArgv: workerExecArgv(),
  });
  return {
    threads,
    verify: (batch) => pool.run(batch) as Promise<VerifyResult[]>,
    workerBackend: () => pool.run(null, { name: 'workerBackend' }) as Promise<RecoveryBackendName>,
    get queued() {
      return pool.queueSize;
    },
    destroy: () => pool.destroy(),
  };
}

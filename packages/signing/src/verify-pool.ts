// A pool of worker threads that digest and recover order signatures off the main thread. Workers
// load this package's TypeScript through tsx, added to their exec args unless already present.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
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

const LOADER_FLAGS = new Set(['--import', '--loader', '--experimental-loader']);
const TSX_SPECIFIER = /^tsx(\/esm)?$|[\\/]node_modules[\\/]tsx[\\/]/;

/** True when the exec args already preload tsx (`node --import tsx …`), which workers inherit. */
function preloadsTsx(execArgv: string[]): boolean {
  return execArgv.some((arg, i) => {
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (!LOADER_FLAGS.has(flag)) return false;
    const specifier = inline ?? execArgv[i + 1] ?? '';
    return TSX_SPECIFIER.test(specifier);
  });
}

function workerExecArgv(): string[] {
  const inherited = process.execArgv;
  if (preloadsTsx(inherited)) return inherited;
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...inherited, '--import', loader];
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

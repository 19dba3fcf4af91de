// HTTP load generator for benches: runs autocannon in a child process (so the load never shares
// an event loop with the server under test) against a 127.0.0.1 URL for a bounded time, and
// reports throughput, latency percentiles (from per-response timings, sub-millisecond), errors
// and status codes.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: string;
  headers?: Record<string, string>;
  /** Concurrent keep-alive connections. */
  connections: number;
  durationMs: number;
  /** Untimed load first, so JIT and connection setup are out of the figures; default 0. */
  warmupMs?: number;
  /** Requests in flight per connection; default 1 (no pipelining). */
  pipelining?: number;
  /**
   * Called in this process when the timed part starts (after warm-up), e.g. to sample
   * process.cpuUsage() of a server running here.
   */
  onMeasuring?: () => void;
}

export interface LoadResult {
  /** Answers of every status. */
  requests: number;
  /** Answers with a 2xx status per second: a refusal or a 502 is not throughput. */
  rps: number;
  /** Answers of any other status, plus connection errors and timeouts. */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCounts: Record<string, number>;
}

/** What the child sends back: a note when timing starts, then the result. */
export type ChildMessage = { kind: 'measuring' } | { kind: 'result'; result: LoadResult };

const childScript = fileURLToPath(new URL('./load-child.ts', import.meta.url));

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`runLoad only targets this machine, not ${host}`);
  }
}

/**
 * The child inherits this process's execArgv, so a bench started with `node --import tsx` or
 * `tsx` runs the TypeScript child the same way.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  assertLoopback(options.url);
  return new Promise((resolve, reject) => {
    const child = fork(childScript, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'measuring') options.onMeasuring?.();
      else result = message.result;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (result !== undefined) resolve(result);
      else reject(new Error(`load generator exited with code ${code} and no result`));
    });
    const { onMeasuring: _local, ...serialisable } = options;
    child.send(serialisable);
  });
}

// Load child for the trading bench: sends distinct prepared POST requests over keep-alive
// connections (each request used once), and reports throughput, latency percentiles and how many
// answers were accepted, through a lean raw-socket client (raw-load.ts): unpaced, or paced by one
// scheduler that sends each request when it is due.

import { runRawLoad } from './raw-load.ts';
import type { PreparedRequest } from './signed-orders.ts';

export interface OrderLoadJob {
  url: string;
  requests: PreparedRequest[];
  connections: number;
  durationMs: number;
  /** Requests per second to pace at; 0 sends as fast as answers come back. */
  ratePerSecond: number;
}

export interface OrderLoadResult {
  sent: number;
  ok: number;
  rejected: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  firstRejection: string;
}

const PACED_WARMUP_MS = 1000;

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** On raw keep-alive sockets (raw-load.ts); paced runs send their first second uncounted. */
async function run(job: OrderLoadJob): Promise<OrderLoadResult> {
  const { latenciesMs, ...result } = await runRawLoad({ ...job, warmupMs: job.ratePerSecond > 0 ? PACED_WARMUP_MS : 0 });
  latenciesMs.sort((x, y) => x - y);
  return { ...result, p50Ms: percentile(latenciesMs, 50), p99Ms: percentile(latenciesMs, 99) };
}

process.once('message', (job: OrderLoadJob) => {
  run(job).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

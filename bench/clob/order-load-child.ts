// Load child for the trading bench: sends distinct prepared POST requests over keep-alive
// connections (each request used once), and reports throughput, latency percentiles and how many
// answers were accepted. Unpaced runs use a lean raw-socket client (raw-load.ts); paced runs use
// undici with one scheduler sending each request when it is due.

import { Pool } from 'undici';
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

/** As fast as answers come back, on raw keep-alive sockets (raw-load.ts). */
async function runFlat(job: OrderLoadJob): Promise<OrderLoadResult> {
  const { latenciesMs, ...result } = await runRawLoad(job);
  latenciesMs.sort((x, y) => x - y);
  return { ...result, p50Ms: percentile(latenciesMs, 50), p99Ms: percentile(latenciesMs, 99) };
}

/**
 * At a fixed rate through undici: one scheduler issues each request at its due time (every
 * millisecond it sends what has come due), so arrivals are smooth rather than in lane bursts;
 * a request waits for a free connection only when all are busy. The first second (the
 * client opening its connections and warming up) is sent but not counted.
 */
async function runPaced(job: OrderLoadJob): Promise<OrderLoadResult> {
  const pool = new Pool(job.url, { connections: job.connections, pipelining: 1 });
  const latencies: number[] = [];
  let ok = 0;
  let rejected = 0;
  let errors = 0;
  let firstRejection = '';
  const start = performance.now();
  const send = async (request: PreparedRequest): Promise<void> => {
    const sentAt = performance.now();
    try {
      const response = await pool.request({ method: 'POST', path: request.path, headers: request.headers, body: request.body });
      const text = await response.body.text();
      if (sentAt < start + PACED_WARMUP_MS) return;
      latencies.push(performance.now() - sentAt);
      if (response.statusCode === 200 && !text.includes('"success":false')) ok++;
      else {
        rejected++;
        if (firstRejection === '') firstRejection = `${response.statusCode} ${text.slice(0, 200)}`;
      }
    } catch {
      errors++;
    }
  };
  const total = Math.min(job.requests.length, Math.floor((job.durationMs / 1000) * job.ratePerSecond));
  const inFlight: Promise<void>[] = [];
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * job.ratePerSecond));
      while (issued < due) inFlight.push(send(job.requests[issued++]!));
      if (issued < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = (performance.now() - start - PACED_WARMUP_MS) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { sent: latencies.length + errors, ok, rejected, errors, seconds, rps: latencies.length / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), firstRejection };
}

process.once('message', (job: OrderLoadJob) => {
  (job.ratePerSecond === 0 ? runFlat(job) : runPaced(job)).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

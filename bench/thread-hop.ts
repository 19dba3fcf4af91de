// What one hand-off between threads costs on this machine: a message to a worker thread and its
// answer, one at a time, so each side sleeps while the other runs. A signed order through the public
// port is handed on ten times (client → front → uWS → verify pool → uWS → shard → Redis → shard →
// uWS → front → client), so where a hand-off is slow the order path is slow however little work
// each thread does. Benches report it beside their ceilings, so runs on different machines compare.
import { Worker } from 'node:worker_threads';
import { percentiles } from './report.ts';

export interface ThreadHopResult {
  /** Round trips per second, one at a time. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the whole process (both threads, user and system) per round trip, in µs. */
  cpuUsPerTrip: number;
}

const ECHO =
  "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (n) => parentPort.postMessage(n));";

/** Round trips to an echoing worker thread for `durationMs` (after a short warm-up). */
export async function threadRoundTrips(durationMs = 1500): Promise<ThreadHopResult> {
  const worker = new Worker(ECHO, { eval: true });
  const trip = (n: number) =>
    new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.postMessage(n);
    });
  try {
    for (let n = 0; n < 500; n++) await trip(n);
    const latencies: number[] = [];
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const end = start + durationMs;
    for (let sent = performance.now(); sent < end;) {
      await trip(latencies.length);
      const now = performance.now();
      latencies.push(now - sent);
      sent = now;
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const [p50Ms, p99Ms] = percentiles(Float64Array.from(latencies), [50, 99]);
    return {
      rate: latencies.length / seconds,
      p50Ms: p50Ms!,
      p99Ms: p99Ms!,
      cpuUsPerTrip: (cpu.user + cpu.system) / latencies.length,
    };
  } finally {
    await worker.terminate();
  }
}

// Load child for the trading bench: sends distinct prepared POST requests over keep-alive
// connections (each request used once), and reports throughput, latency percentiles and how many
// answers were accepted. Unpaced runs use autocannon (a much lighter client, feeding each request
// its own body); paced runs use node:http, one timer per lane.

import http from 'node:http';
import autocannon from 'autocannon';
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

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** As fast as answers come back, through autocannon: each request takes the next prepared body. */
function runFlat(job: OrderLoadJob): Promise<OrderLoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let next = 0;
    let ok = 0;
    let rejected = 0;
    const start = performance.now();
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.durationMs / 1000,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const prepared = job.requests[next++ % job.requests.length]!;
              return { ...request, path: prepared.path, body: prepared.body, headers: { ...prepared.headers } };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = (performance.now() - start) / 1000;
        latencies.sort((a, b) => a - b);
        resolve({
          sent: latencies.length,
          ok,
          rejected,
          errors: result.errors + result.timeouts,
          seconds,
          rps: latencies.length / seconds,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          firstRejection: next > job.requests.length ? 'prepared requests ran out (some were sent twice)' : '',
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      latencies.push(responseTimeMs);
      if (statusCode === 200) ok++;
      else rejected++;
    });
  });
}

async function run(job: OrderLoadJob): Promise<OrderLoadResult> {
  if (job.ratePerSecond === 0) return runFlat(job);
  const url = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let next = 0;
  let ok = 0;
  let rejected = 0;
  let errors = 0;
  let firstRejection = '';
  const start = performance.now();
  const deadline = start + job.durationMs;
  const send = (request: PreparedRequest) =>
    new Promise<void>((resolve) => {
      const sentAt = performance.now();
      const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: request.path, agent, headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - sentAt);
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode === 200 && !text.includes('"success":false')) ok++;
          else {
            rejected++;
            if (firstRejection === '') firstRejection = `${res.statusCode} ${text.slice(0, 200)}`;
          }
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(request.body);
    });
  const worker = async (lane: number) => {
    while (performance.now() < deadline && next < job.requests.length) {
      if (job.ratePerSecond > 0) {
        const due = start + (next / job.ratePerSecond) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (performance.now() >= deadline) break;
      }
      const request = job.requests[next++];
      if (request === undefined) break;
      await send(request);
    }
    void lane;
  };
  await Promise.all(Array.from({ length: job.connections }, (_, lane) => worker(lane)));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { sent: latencies.length + errors, ok, rejected, errors, seconds, rps: latencies.length / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), firstRejection };
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

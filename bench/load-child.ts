// Child half of runLoad (bench/load.ts): receives LoadOptions over IPC, drives autocannon,
// times every response itself (autocannon's own histogram is whole milliseconds), replies once.
import autocannon from 'autocannon';
import type { ChildMessage, LoadOptions, LoadResult } from './load.ts';
import { percentiles } from './report.ts';

interface Sample {
  latenciesMs: number[];
  statusCounts: Record<string, number>;
  errors: number;
  elapsedMs: number;
}

function drive(options: LoadOptions, durationMs: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const sample: Sample = { latenciesMs: [], statusCounts: {}, errors: 0, elapsedMs: 0 };
    const started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.headers !== undefined ? { headers: options.headers } : {}),
        connections: options.connections,
        pipelining: options.pipelining ?? 1,
        duration: durationMs / 1000,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        sample.elapsedMs = performance.now() - started;
        sample.errors = result.errors + result.timeouts;
        resolve(sample);
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      sample.latenciesMs.push(responseTimeMs);
      sample.statusCounts[statusCode] = (sample.statusCounts[statusCode] ?? 0) + 1;
    });
  });
}

async function run(options: LoadOptions): Promise<LoadResult> {
  if ((options.warmupMs ?? 0) > 0) await drive(options, options.warmupMs!);
  send({ kind: 'measuring' });
  const sample = await drive(options, options.durationMs);
  const requests = sample.latenciesMs.length;
  const [p50Ms, p99Ms] = percentiles(Float64Array.from(sample.latenciesMs), [50, 99]);
  const succeeded = Object.entries(sample.statusCounts).reduce(
    (sum, [status, count]) => sum + (status.startsWith('2') ? count : 0),
    0,
  );
  return {
    requests,
    rps: succeeded / (sample.elapsedMs / 1000),
    failed: requests - succeeded + sample.errors,
    p50Ms: p50Ms!,
    p99Ms: p99Ms!,
    errors: sample.errors,
    statusCounts: sample.statusCounts,
  };
}

function send(message: ChildMessage, then: () => void = () => {}): void {
  process.send!(message, undefined, undefined, then);
}

process.once('message', (options: LoadOptions) => {
  run(options).then(
    (result) => send({ kind: 'result', result }, () => process.exit(0)),
    (error: unknown) => {
      console.error('load generator failed:', error);
      process.exit(1);
    },
  );
});

// Load child for the trading bench: sends distinct prepared POST requests over keep-alive
// connections (each request used once), and reports throughput, latency percentiles and how many
// answers were accepted, through a lean raw-socket client (raw-load.ts): unpaced, or paced by one
// scheduler that sends each request when it is due.

import { percentiles } from '../report.ts';
import { runRawLoad, type RawLoadJob, type RawLoadResult } from './raw-load.ts';

/** A load job for the child: `ratePerSecond` 0 sends as fast as answers come back. */
export type OrderLoadJob = Omit<RawLoadJob, 'ratePerSecond' | 'warmupMs'> & { ratePerSecond: number };

export type OrderLoadResult = Omit<RawLoadResult, 'latenciesMs' | 'sendLagsMs'> & {
  p50Ms: number;
  p99Ms: number;
  sendLagP50Ms: number;
  sendLagP99Ms: number;
  /** This client's own CPU per request sent: it shares the machine with the server. */
  clientCpuUsPerRequest: number;
};

const PACED_WARMUP_MS = 1000;

/** On raw keep-alive sockets (raw-load.ts); paced runs send their first second uncounted. */
async function run(job: OrderLoadJob): Promise<OrderLoadResult> {
  const { latenciesMs, sendLagsMs, ...result } = await runRawLoad({
    ...job,
    warmupMs: job.ratePerSecond > 0 ? PACED_WARMUP_MS : 0,
  });
  const [p50Ms, p99Ms] = percentiles(Float64Array.from(latenciesMs), [50, 99]);
  const [sendLagP50Ms, sendLagP99Ms] =
    sendLagsMs.length > 0 ? percentiles(Float64Array.from(sendLagsMs), [50, 99]) : [0, 0];
  const clientCpuUsPerRequest = result.cpuUs / Math.max(1, result.sent);
  return {
    ...result,
    p50Ms: p50Ms!,
    p99Ms: p99Ms!,
    sendLagP50Ms: sendLagP50Ms!,
    sendLagP99Ms: sendLagP99Ms!,
    clientCpuUsPerRequest,
  };
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

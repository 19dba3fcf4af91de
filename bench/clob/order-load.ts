// Order loads for the trading bench: the load child (order-load-child.ts) in a process of its own,
// the server's CPU per request over the run, and the floor (floor-server.ts): the same load against
// a server made of only the parts the issue mandates for an order.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEdge, type EdgeHarness } from '@pmx/edge/testing';
import { createTempDir } from '@pmx/testkit';
import { processCpuUs, withSteal } from '../host-cpu.ts';
import type { OrderLoadJob, OrderLoadResult } from './order-load-child.ts';

export type MeasuredLoad = OrderLoadResult & {
  stealPct: number | undefined;
  serverCpuUsPerRequest: number | undefined;
};

function orderLoadChild(job: OrderLoadJob): Promise<OrderLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./order-load-child.ts', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (result: OrderLoadResult) => resolve(result));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`order load exited ${code}`))));
    child.send(job);
  });
}

/** An order-load child run, with the host's CPU steal and the server's CPU per request over it. */
export async function orderLoad(job: OrderLoadJob, server?: ChildProcess): Promise<MeasuredLoad> {
  const before = server?.pid === undefined ? undefined : processCpuUs(server.pid);
  const result = await withSteal(() => orderLoadChild(job));
  const after = server?.pid === undefined ? undefined : processCpuUs(server.pid);
  const serverCpuUsPerRequest =
    before === undefined || after === undefined ? undefined : (after - before) / Math.max(1, result.sent);
  return { ...result, serverCpuUsPerRequest };
}

/**
 * POST /order against the floor server, through the edge (`throughEdge`) or straight at uWS on `port`:
 * saturated after a warm-up of `warmup` (not counted), then, with `paced`, at that rate. `requests`
 * must carry header names the way taken: `SVC_X` through the edge, `SVC-X` straight at uWS.
 */
export async function floorLoad(options: {
  throughEdge: boolean;
  port: number;
  requests: OrderLoadJob['requests'];
  warmup: OrderLoadJob['requests'];
  connections: number;
  durationMs: number;
  paced?: { perSecond: number; requests: OrderLoadJob['requests']; durationMs: number };
}): Promise<{ saturated: MeasuredLoad; paced?: MeasuredLoad }> {
  const dir = options.throughEdge ? await createTempDir('pmx-bench-floor-') : undefined;
  const socket = dir === undefined ? undefined : join(dir.path, 'floor.sock');
  const server = fork(fileURLToPath(new URL('./floor-server.ts', import.meta.url)), [], {
    env: {
      ...process.env,
      FLOOR_PORT: String(options.port),
      ...(socket === undefined ? {} : { FLOOR_SOCKET: socket }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let edge: EdgeHarness | undefined;
  try {
    await new Promise((resolve, reject) => {
      server.once('message', resolve);
      server.once('exit', (code) => reject(new Error(`floor server exited ${code}`)));
    });
    if (socket !== undefined)
      edge = await startEdge({
        PMX_CLOB_SOCKET: socket,
        PMX_RATE_LIMITS: 'false',
        PMX_MAX_BODY_BYTES: String(1 << 20),
      });
    const url = edge?.clobUrl ?? `http://127.0.0.1:${options.port}`;
    const job = { url, connections: options.connections, ratePerSecond: 0 };
    await orderLoad({ ...job, requests: options.warmup, durationMs: 1500 });
    const saturated = await orderLoad({ ...job, requests: options.requests, durationMs: options.durationMs }, server);
    const { paced } = options;
    if (paced === undefined) return { saturated };
    return {
      saturated,
      paced: await orderLoad(
        { ...job, requests: paced.requests, durationMs: paced.durationMs, ratePerSecond: paced.perSecond },
        server,
      ),
    };
  } finally {
    await edge?.close();
    server.kill('SIGTERM');
    if (server.exitCode === null && server.signalCode === null) await new Promise((r) => server.once('exit', r));
    await dir?.remove();
  }
}

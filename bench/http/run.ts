// HTTP layer bench: hello-world GET and a small-JSON POST served by @pmx/http and by raw uWS
// (the floor), each under the same keep-alive load from a separate process on 127.0.0.1.
// Usage: pnpm --filter @pmx/bench http [-- --duration 3000 --connections 32 --warmup 500 --pipelining 1 --repeat 3]
//    or: node --import tsx bench/http/run.ts [same flags]
import { parseArgs } from 'node:util';
import { createHttpServer, uwsIsNative, type Route } from '@pmx/http';
import uWS from '@trufflesuite/uws-js-unofficial';
import type { HttpResponse, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import { runLoad, type LoadOptions } from '../load.ts';
import { writeReport, type Row } from '../report.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'), // pnpm passes the `--` through
  options: {
    duration: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '500' },
    pipelining: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '3' },
  },
});
const DURATION_MS = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WARMUP_MS = Number(values.warmup);
// One autocannon process tops out near the server's speed; pipelining lets it push harder.
const PIPELINING = Number(values.pipelining);
const REPEAT = Number(values.repeat);

const ORDER_BODY = JSON.stringify({
  market: '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1',
  side: 'BUY',
  price: '0.55',
  size: '100',
  id: 'o-1',
});

/** The floor: what a hand-written uWS app does for the same two endpoints. */
function startRawUws(): { port: number; close: () => void } {
  const app = uWS.App();
  app.get('/hello', (res) => {
    res.cork(() => res.writeHeader('content-type', 'application/json').end('{"hello":"world"}'));
  });
  app.post('/order', (res: HttpResponse) => {
    let aborted = false;
    let parts: Buffer[] = [];
    res.onAborted(() => {
      aborted = true;
    });
    res.onData((chunk, isLast) => {
      parts.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast || aborted) return;
      const order = JSON.parse(Buffer.concat(parts).toString('utf8')) as { id: string };
      parts = [];
      res.cork(() =>
        res.writeHeader('content-type', 'application/json').end(JSON.stringify({ ok: true, id: order.id })),
      );
    });
  });
  let socket: us_listen_socket | false = false;
  app.listen('127.0.0.1', 0, (listenSocket) => {
    socket = listenSocket;
  });
  const bound: us_listen_socket | false = socket;
  if (bound === false) throw new Error('raw uWS could not listen');
  return { port: uWS.us_socket_local_port(bound), close: () => uWS.us_listen_socket_close(bound) };
}

function startPmx(): { port: number; close: () => Promise<void> } {
  const routes: Route[] = [
    { method: 'GET', path: '/hello', handler: () => ({ body: { hello: 'world' } }) },
    { method: 'POST', path: '/order', handler: (ctx) => ({ body: { ok: true, id: ctx.json<{ id: string }>().id } }) },
  ];
  return createHttpServer({ routes, errorShape: 'simple' }).listen(0);
}

const raw = startRawUws();
const pmx = startPmx();

const scenarios: {
  name: string;
  server: string;
  port: number;
  load: Omit<LoadOptions, 'url' | 'connections' | 'durationMs'>;
  path: string;
}[] = [
  { name: 'GET hello', server: 'raw uWS', port: raw.port, path: '/hello', load: {} },
  { name: 'GET hello', server: '@pmx/http', port: pmx.port, path: '/hello', load: {} },
  {
    name: 'POST small JSON',
    server: 'raw uWS',
    port: raw.port,
    path: '/order',
    load: { method: 'POST', body: ORDER_BODY, headers: { 'content-type': 'application/json' } },
  },
  {
    name: 'POST small JSON',
    server: '@pmx/http',
    port: pmx.port,
    path: '/order',
    load: { method: 'POST', body: ORDER_BODY, headers: { 'content-type': 'application/json' } },
  },
];

interface Measured {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
  requests: number;
  non200: number;
  errors: number;
}

async function measure(s: (typeof scenarios)[number]): Promise<Measured> {
  // Both servers run in this process, so its CPU time per request is the server's cost even
  // when the single-process load generator, not the server, caps req/s.
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  const result = await runLoad({
    url: `http://127.0.0.1:${s.port}${s.path}`,
    connections: CONNECTIONS,
    durationMs: DURATION_MS,
    warmupMs: WARMUP_MS,
    pipelining: PIPELINING,
    onMeasuring: () => (cpuAtStart = process.cpuUsage()),
    ...s.load,
  });
  const cpu = process.cpuUsage(cpuAtStart);
  return {
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    cpuMicrosPerRequest: (cpu.user + cpu.system) / result.requests,
    requests: result.requests,
    non200: result.requests - (result.statusCounts['200'] ?? 0),
    errors: result.errors,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

console.log(
  `http bench: ${REPEAT} rounds of ${scenarios.length} runs, ${DURATION_MS} ms each (+${WARMUP_MS} ms warm-up), ` +
    `${CONNECTIONS} connections, pipelining ${PIPELINING}`,
);
// Rounds interleave raw and pmx so a noisy neighbour hits both alike; medians are reported.
const runs: Measured[][] = scenarios.map(() => []);
for (let round = 0; round < REPEAT; round++) {
  for (let i = 0; i < scenarios.length; i++) runs[i]!.push(await measure(scenarios[i]!));
}

const rows: Row[] = [];
const rps: Record<string, number> = {};
const cpuPerRequest: Record<string, number> = {};
scenarios.forEach((s, i) => {
  const m = runs[i]!;
  const pick = (f: (x: Measured) => number): number => median(m.map(f));
  rows.push({
    endpoint: s.name,
    server: s.server,
    'req/s': Math.round(pick((x) => x.rps)),
    'p50 ms': Number(pick((x) => x.p50Ms).toFixed(3)),
    'p99 ms': Number(pick((x) => x.p99Ms).toFixed(3)),
    'server CPU µs/req': Number(pick((x) => x.cpuMicrosPerRequest).toFixed(2)),
    requests: m.reduce((sum, x) => sum + x.requests, 0),
    'non-200': m.reduce((sum, x) => sum + x.non200, 0),
    errors: m.reduce((sum, x) => sum + x.errors, 0),
  });
  rps[`${s.name} ${s.server}`] = pick((x) => x.rps);
  cpuPerRequest[`${s.name} ${s.server}`] = pick((x) => x.cpuMicrosPerRequest);
});
raw.close();
await pmx.close();

const ratio = (of: Record<string, number>, name: string): number =>
  Number((of[`${name} @pmx/http`]! / of[`${name} raw uWS`]!).toFixed(3));
writeReport({
  bench: 'http',
  goal: '@pmx/http keeps most of raw uWS throughput on hello-world GET and small-JSON POST',
  rows,
  figures: {
    'GET pmx/raw throughput': ratio(rps, 'GET hello'),
    'POST pmx/raw throughput': ratio(rps, 'POST small JSON'),
    'GET pmx/raw server CPU per request': ratio(cpuPerRequest, 'GET hello'),
    'POST pmx/raw server CPU per request': ratio(cpuPerRequest, 'POST small JSON'),
    'uWS native addon': uwsIsNative,
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    'duration ms per run': DURATION_MS,
    'rounds (medians reported)': REPEAT,
  },
});

// Edge bench: what HAProxy (the edge, with its rendered config and its rate-limit rules running)
// costs per request, measured in one run against its peers: a hand-written uWS hello-world
// straight and through the edge; then GET /book and
// signed POST /order of a real clob through the edge and straight at its direct port. Each
// process's CPU is read from /proc, so the edge's cost per request is its own. (The old front's
// figures, measured before it was deleted, are in docs/design/edge.md.)
// Usage: pnpm --filter @pmx/bench edge [-- --duration 3000 --connections 64 --rounds 3 --no-limits]
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { startEdge, type EdgeHarness } from '@pmx/edge/testing';
import { cleanupRedisPrefix, createTempDir, createTestDatabase, testkitConfig, testRedisPrefix } from '@pmx/testkit';
import { processCpuUs, stealFigure, withSteal } from '../host-cpu.ts';
import { runLoad, type LoadOptions } from '../load.ts';
import { writeReport, type Row } from '../report.ts';
import { orderLoad } from '../clob/order-load.ts';
import {
  authedRequest,
  hyphenated,
  makeTrader,
  orders,
  type BenchTrader,
  type PreparedRequest,
} from '../clob/signed-orders.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    duration: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    // Ablations: the edge without its rate-limit rules; the hello-world part alone.
    'no-limits': { type: 'boolean', default: false },
    'hello-only': { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** Caps far above any load here: the rules run (their cost is measured), nothing is refused. */
const UNREACHED_CAPS = Object.fromEntries(
  ['CLOB_GENERAL', 'CLOB_BOOK', 'CLOB_ORDER_BURST', 'CLOB_ORDER_SUSTAINED', 'CLOB_HEALTH'].map((name) => [
    `PMX_EDGE_${name}`,
    '100000000',
  ]),
);

/** A child that reports its port over IPC once it listens. */
async function forked(script: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(message as number));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { child, port };
}

interface Measured {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU µs per answered request of the process in between (the edge), and of the server. */
  proxyCpuUs: number | undefined;
  serverCpuUs: number | undefined;
  non2xx: number;
  stealPct: number | undefined;
}

async function measure(load: Omit<LoadOptions, 'connections' | 'durationMs'>, proxy?: number, server?: number) {
  let proxyStart: number | undefined;
  let serverStart: number | undefined;
  const result = await withSteal(() =>
    runLoad({
      ...load,
      connections: CONNECTIONS,
      durationMs: DURATION,
      warmupMs: 500,
      onMeasuring: () => {
        proxyStart = proxy === undefined ? undefined : processCpuUs(proxy);
        serverStart = server === undefined ? undefined : processCpuUs(server);
      },
    }),
  );
  const per = (pid: number | undefined, start: number | undefined) => {
    const end = pid === undefined ? undefined : processCpuUs(pid);
    return end === undefined || start === undefined ? undefined : (end - start) / Math.max(1, result.requests);
  };
  return {
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    proxyCpuUs: per(proxy, proxyStart),
    serverCpuUs: per(server, serverStart),
    non2xx: result.failed,
    stealPct: result.stealPct,
  } satisfies Measured;
}

const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const fixed = (x: number | undefined, digits = 1) => (x === undefined ? 'n/a' : Number(x.toFixed(digits)));

/** Runs the scenarios interleaved for ROUNDS rounds and keeps each one's median by rate. */
async function rounds(scenarios: { name: string; run: () => Promise<Measured> }[]): Promise<Map<string, Measured>> {
  const all = new Map<string, Measured[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const scenario of scenarios) all.get(scenario.name)!.push(await scenario.run());
  return new Map(
    [...all].map(([name, runs]) => {
      const rate = middle(runs.map((r) => r.rps));
      return [name, runs.find((r) => r.rps === rate)!];
    }),
  );
}

/** Thrown to skip the clob part (--hello-only). */
class HelloOnly extends Error {}

const dir = await createTempDir('pmx-bench-edge-');
const rows: Row[] = [];
const figures: Record<string, number | string | boolean> = {};
const children: ChildProcess[] = [];
let edge: EdgeHarness | undefined;
try {
  // --- hello-world: straight and through the edge ----------------------------------------------
  const helloSocket = join(dir.path, 'hello.sock');
  const hello = await forked(here('./hello-server.ts'), [helloSocket]);
  children.push(hello.child);
  edge = await startEdge({
    PMX_CLOB_SOCKET: helloSocket,
    ...UNREACHED_CAPS,
    PMX_RATE_LIMITS: values['no-limits'] ? 'false' : 'true',
  });
  const body = JSON.stringify({ id: 'o-1', pad: 'x'.repeat(730) }); // ≈ 750 bytes, as a signed order
  const post = (url: string, separator: string): Omit<LoadOptions, 'connections' | 'durationMs'> => ({
    url: `${url}/order`,
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      [`SVC${separator}API${separator}KEY`]: '0b6e5f5c-0f7d-4c8e-9d1a-3a2b1c0d9e8f',
      [`SVC${separator}ADDRESS`]: `0x${'ab'.repeat(20)}`,
    },
  });
  const direct = `http://127.0.0.1:${hello.port}`;
  const paths = [
    { name: 'uWS straight', url: direct, sep: '-', proxy: undefined as number | undefined },
    { name: 'through the edge (HAProxy)', url: edge.clobUrl, sep: '_', proxy: edge.pid },
  ];
  console.log(
    `edge bench: hello-world, ${ROUNDS} rounds × ${paths.length * 2} runs of ${DURATION} ms, ${CONNECTIONS} connections`,
  );
  const helloRuns = await rounds(
    paths.flatMap((p) => [
      { name: `GET /hello ${p.name}`, run: () => measure({ url: `${p.url}/hello` }, p.proxy, hello.child.pid) },
      { name: `POST 750 B ${p.name}`, run: () => measure(post(p.url, p.sep), p.proxy, hello.child.pid) },
    ]),
  );
  for (const [name, m] of helloRuns)
    rows.push({
      run: name,
      'req/s': Math.round(m.rps),
      'p50 ms': fixed(m.p50Ms, 2),
      'p99 ms': fixed(m.p99Ms, 2),
      'edge/front CPU µs/req': fixed(m.proxyCpuUs),
      'server CPU µs/req': fixed(m.serverCpuUs),
      'non-2xx': m.non2xx,
      'steal %': stealFigure(m.stealPct),
    });
  for (const kind of ['GET /hello', 'POST 750 B']) {
    const straight = helloRuns.get(`${kind} uWS straight`)!;
    const viaEdge = helloRuns.get(`${kind} through the edge (HAProxy)`)!;
    figures[`${kind}: edge/straight throughput`] = fixed(viaEdge.rps / straight.rps, 3);
    figures[`${kind}: edge CPU µs per request`] = fixed(viaEdge.proxyCpuUs);
  }
  await edge.close();
  edge = undefined;
  hello.child.kill();
  if (values['hello-only']) throw new HelloOnly();

  // --- a real clob: GET /book and signed POST /order, through the edge and straight ------------
  const db = await createTestDatabase();
  const prefix = testRedisPrefix();
  const clobSocket = join(dir.path, 'clob.sock');
  const directPort = 20_000 + Math.floor(Math.random() * 10_000);
  const operatorKey = randomBytes(16).toString('hex');
  const clob = spawn(process.execPath, ['--import', 'tsx', 'services/clob/src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      PMX_PG_URL: db.url,
      PMX_REDIS_URL: testkitConfig.redisUrl,
      PMX_REDIS_PREFIX: prefix.slice(0, -1),
      PMX_CLOB_DIRECT_PORT: String(directPort),
      PMX_CLOB_SOCKET: clobSocket,
      PMX_OPERATOR_KEY: operatorKey,
      PMX_HISTORY: 'false',
      PMX_AUTH_WINDOW_SECONDS: '3600',
      PMX_REPLAY_WINDOW_SECONDS: '1800',
      PMX_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(clob);
  const straightUrl = `http://127.0.0.1:${directPort}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${straightUrl}/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 150) throw new Error('clob did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  edge = await startEdge({ PMX_CLOB_SOCKET: clobSocket, ...UNREACHED_CAPS });
  const operator = async (path: string, payload: unknown) => {
    const response = await fetch(`${straightUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  const yes = BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
  const no = BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
  await operator('/operator/markets', {
    condition_id: `0x${randomBytes(32).toString('hex')}`,
    question: 'Edge bench?',
    tokens: [
      { token_id: yes, outcome: 'Yes' },
      { token_id: no, outcome: 'No' },
    ],
    tick_size: '0.01',
    min_order_size: '5',
  });
  const traders: BenchTrader[] = [];
  for (let i = 0; i < 8; i++) {
    const trader = await makeTrader(edge.clobUrl);
    for (const asset of ['collateral', yes])
      await operator('/operator/deposit', { address: trader.address, asset, amount: String(1e14) });
    traders.push(trader);
  }
  const now = Math.floor(Date.now() / 1000);
  const signed = orders(traders, yes, 60_000).map((o, i) => authedRequest(traders[i % 8]!, 'POST', '/order', o, now));
  const bookRuns = await rounds([
    {
      name: 'GET /book straight',
      run: () => measure({ url: `${straightUrl}/book?token_id=${yes}` }, undefined, clob.pid),
    },
    {
      name: 'GET /book through the edge',
      run: () => measure({ url: `${edge!.clobUrl}/book?token_id=${yes}` }, edge!.pid, clob.pid),
    },
  ]);
  const orderRun = async (url: string, requests: PreparedRequest[], proxy: number | undefined) => {
    const before = proxy === undefined ? undefined : processCpuUs(proxy);
    const result = await orderLoad({ url, requests, connections: 128, durationMs: DURATION, ratePerSecond: 0 }, clob);
    const after = proxy === undefined ? undefined : processCpuUs(proxy);
    return {
      rps: result.rps,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      proxyCpuUs: before === undefined || after === undefined ? undefined : (after - before) / Math.max(1, result.sent),
      serverCpuUs: result.serverCpuUsPerRequest,
      non2xx: result.rejected + result.errors,
      stealPct: result.stealPct,
    } satisfies Measured;
  };
  const orderRuns = new Map<string, Measured>([
    ['POST /order straight', await orderRun(straightUrl, hyphenated(signed.slice(0, 30_000)), undefined)],
    ['POST /order through the edge', await orderRun(edge.clobUrl, signed.slice(30_000), edge.pid)],
  ]);
  for (const [name, m] of [...bookRuns, ...orderRuns])
    rows.push({
      run: name,
      'req/s': Math.round(m.rps),
      'p50 ms': fixed(m.p50Ms, 2),
      'p99 ms': fixed(m.p99Ms, 2),
      'edge/front CPU µs/req': fixed(m.proxyCpuUs),
      'server CPU µs/req': fixed(m.serverCpuUs),
      'non-2xx': m.non2xx,
      'steal %': stealFigure(m.stealPct),
    });
  const bookEdge = bookRuns.get('GET /book through the edge')!;
  const orderEdge = orderRuns.get('POST /order through the edge')!;
  figures['GET /book: edge/straight throughput'] = fixed(bookEdge.rps / bookRuns.get('GET /book straight')!.rps, 3);
  figures['GET /book: edge CPU µs per request'] = fixed(bookEdge.proxyCpuUs);
  figures['POST /order: edge/straight throughput'] = fixed(
    orderEdge.rps / orderRuns.get('POST /order straight')!.rps,
    3,
  );
  figures['POST /order: edge CPU µs per order'] = fixed(orderEdge.proxyCpuUs);
  figures['POST /order: edge CPU / server CPU per order'] =
    orderEdge.proxyCpuUs === undefined || orderEdge.serverCpuUs === undefined
      ? 'n/a'
      : fixed(orderEdge.proxyCpuUs / orderEdge.serverCpuUs, 3);
  figures.connections = CONNECTIONS;
  figures['rounds (medians)'] = ROUNDS;
  figures['duration ms per run'] = DURATION;
  figures['edge threads'] = 1;
  figures['edge rate-limit rules'] = !values['no-limits'];
  await edge.close();
  edge = undefined;
  clob.kill('SIGTERM');
  await new Promise((resolve) => clob.once('exit', resolve));
  const redis = new Redis(testkitConfig.redisUrl);
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await db.drop();
} catch (error) {
  if (!(error instanceof HelloOnly)) throw error;
} finally {
  await edge?.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (existsSync(dir.path)) await dir.remove();
}

writeReport({
  bench: 'edge',
  goal: 'the edge (HAProxy) costs less CPU per request than the hand-written front did (docs/design/edge.md), and keeps most of uWS straight',
  rows,
  figures,
});

// Account-data bench. Reads: GET /positions of a wallet with 500 positions and GET /holders of a
// market with 10,000 holders, against the data service as its own process over a ledger written by
// ShardLedger from engine events, measured in the same run as a hello-world on the same HTTP layer
// (@pmx/http), which runs before and after each round (medians). Then the time from a trade's ack to
// its position showing, under a steady order load through the real clob, ingest and data service.
// Usage: pnpm --filter @pmx/bench data [-- --duration 3000 --connections 32 --repeat 1 --pairs 100 --seconds 20]
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '@pmx/testkit';
import { writeReport, type Row } from '../report.ts';
import { forkServer, loadWithCpu, startService, type MeasuredLoad } from '../service-process.ts';
import { buildLedger } from './ledger-fixture.ts';
import { ackToVisible } from './visibility.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'), // pnpm passes the `--` through
  options: {
    duration: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '500' },
    repeat: { type: 'string', default: '1' },
    positions: { type: 'string', default: '500' },
    holders: { type: 'string', default: '10000' },
    pairs: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
  },
});
const DURATION_MS = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WARMUP_MS = Number(values.warmup);
const REPEAT = Math.max(1, Number(values.repeat));
const POSITIONS = Number(values.positions);
const HOLDERS = Number(values.holders);
const PAIRS = Number(values.pairs);
const SECONDS = Number(values.seconds);
/** The aims: reads at ≥ 30 % of hello-world, a trade's position visible within 1 s (p99). */
const READ_SHARE_GOAL = 0.3;
const VISIBLE_P99_GOAL_MS = 1000;

function log(line: string): void {
  console.log(`bench:data ${line}`);
}

/** The data service as its own process; resolves with its port and load time once it listens. */
async function startData(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; loadMs: number }> {
  const { child, found } = await startService('services/data/src/main.ts', env, (output) => {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+) \(.* loaded in (\d+) ms\)/.exec(output);
    return match === null ? undefined : { port: Number(match[1]), loadMs: Number(match[2]) };
  });
  return { child, ...found };
}

type Measured = MeasuredLoad;

const measure = (url: string, pid: number) =>
  loadWithCpu({ url, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS }, pid);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const db = await createTestDatabase({ postgres: { max: 8 } });
const servers: ChildProcess[] = [];
try {
  log(`writing the ledger: a wallet with ${POSITIONS} positions, a market with ${HOLDERS} holders…`);
  const built = performance.now();
  const ledger = await buildLedger(db.sql, { positions: POSITIONS, holders: HOLDERS });
  log(`ledger written in ${Math.round(performance.now() - built)} ms`);
  const dataEnv = { PMX_PG_URL: db.url, PMX_DATA_DIRECT_PORT: '0', PMX_DATA_PRICE_REFRESH_MS: '0', PMX_LOG_LEVEL: 'info' };
  const data = await startData(dataEnv);
  // The same service without its response cache: each answer built afresh (filter, sort, join).
  const uncached = await startData({ ...dataEnv, PMX_DATA_RESPONSE_CACHE: '0' });
  const hello = await forkServer(new URL('./hello-server.ts', import.meta.url));
  servers.push(data.child, uncached.child, hello.child);
  const base = `http://127.0.0.1:${data.port}`;
  const reads = [
    { name: `positions: ${POSITIONS} held, default page (100 by tokens)`, path: `/positions?user=${ledger.wallet}` },
    { name: `positions: ${POSITIONS} held, all (limit 500)`, path: `/positions?user=${ledger.wallet}&limit=500` },
    {
      name: `positions: ${POSITIONS} held, 50 by cash PnL`,
      path: `/positions?user=${ledger.wallet}&sortBy=CASHPNL&limit=50`,
    },
    { name: `holders: ${HOLDERS}, default (20 per token)`, path: `/holders?market=${ledger.crowded}` },
    { name: `holders: ${HOLDERS}, 500 per token`, path: `/holders?market=${ledger.crowded}&limit=500` },
  ];
  const sizes: number[] = [];
  for (const read of reads) {
    const response = await fetch(`${base}${read.path}`);
    if (!response.ok) throw new Error(`${read.path}: ${response.status}`);
    sizes.push(Buffer.byteLength(await response.text()));
  }
  const check = (await (await fetch(`${base}${reads[1]!.path}`)).json()) as unknown[];
  if (check.length !== POSITIONS) throw new Error(`the wallet shows ${check.length} positions, not ${POSITIONS}`);

  // Each read three ways: answered from the cache, built afresh, and a prepared body of its size.
  const scenarios = reads.flatMap((read, i) => [
    { read: i, kind: 'cached', url: `${base}${read.path}`, pid: data.child.pid! },
    { read: i, kind: 'built', url: `http://127.0.0.1:${uncached.port}${read.path}`, pid: uncached.child.pid! },
    { read: i, kind: 'same size', url: `http://127.0.0.1:${hello.port}/sized/${sizes[i]}`, pid: hello.child.pid! },
  ]);
  log(`${REPEAT} round(s), ${DURATION_MS} ms a run (+${WARMUP_MS} ms warm-up), ${CONNECTIONS} connections`);
  const helloUrl = `http://127.0.0.1:${hello.port}/hello`;
  const helloRuns: Measured[] = [];
  const runs: Measured[][] = scenarios.map(() => []);
  for (let round = 0; round < REPEAT; round++) {
    helloRuns.push(await measure(helloUrl, hello.child.pid!));
    for (const [i, s] of scenarios.entries()) {
      const m = await measure(s.url, s.pid);
      runs[i]!.push(m);
      log(`${reads[s.read]!.name} (${s.kind}): ${Math.round(m.rps)} req/s, p99 ${m.p99Ms.toFixed(2)} ms`);
    }
    helloRuns.push(await measure(helloUrl, hello.child.pid!));
  }
  const helloRps = median(helloRuns.map((m) => m.rps));
  const pick = (ms: Measured[], f: (m: Measured) => number) => median(ms.map(f));
  const rows: Row[] = [
    {
      read: 'hello world (@pmx/http)',
      answer: '',
      'req/s': Math.round(helloRps),
      'of hello': '100 %',
      'of same size': '',
      'p50 ms': Number(pick(helloRuns, (m) => m.p50Ms).toFixed(3)),
      'p99 ms': Number(pick(helloRuns, (m) => m.p99Ms).toFixed(3)),
      'server CPU µs/req': Number(pick(helloRuns, (m) => m.cpuPerRequest).toFixed(1)),
      bytes: Buffer.byteLength('{"hello":"world"}'),
      'non-2xx': helloRuns.reduce((sum, m) => sum + m.failed, 0),
    },
  ];
  const worst = { cached: Infinity, built: Infinity, cachedOfSize: Infinity };
  for (const [i, s] of scenarios.entries()) {
    const rps = pick(runs[i]!, (m) => m.rps);
    const sameSize = pick(runs[scenarios.findIndex((x) => x.read === s.read && x.kind === 'same size')]!, (m) => m.rps);
    if (s.kind === 'cached') {
      worst.cached = Math.min(worst.cached, rps / helloRps);
      worst.cachedOfSize = Math.min(worst.cachedOfSize, rps / sameSize);
    }
    if (s.kind === 'built') worst.built = Math.min(worst.built, rps / helloRps);
    rows.push({
      read: reads[s.read]!.name,
      answer: s.kind,
      'req/s': Math.round(rps),
      'of hello': `${Math.round((rps / helloRps) * 100)} %`,
      'of same size': s.kind === 'same size' ? '' : `${Math.round((rps / sameSize) * 100)} %`,
      'p50 ms': Number(pick(runs[i]!, (m) => m.p50Ms).toFixed(3)),
      'p99 ms': Number(pick(runs[i]!, (m) => m.p99Ms).toFixed(3)),
      'server CPU µs/req': Number(pick(runs[i]!, (m) => m.cpuPerRequest).toFixed(1)),
      bytes: sizes[s.read]!,
      'non-2xx': runs[i]!.reduce((sum, m) => sum + m.failed, 0),
    });
  }
  for (const child of servers.splice(0)) child.kill('SIGTERM');

  log(`ack → visible: ${PAIRS} order pairs/s for ${SECONDS} s through clob, ingest and data…`);
  const visible = await ackToVisible({ db, pairsPerSecond: PAIRS, seconds: SECONDS, log });
  rows.push({
    read: `ack → position visible (${visible.samples} probe trades under ${Math.round(visible.ordersPerSecond)} orders/s)`,
    answer: '',
    'req/s': '',
    'of hello': '',
    'of same size': '',
    'p50 ms': Number(visible.p50Ms.toFixed(1)),
    'p99 ms': Number(visible.p99Ms.toFixed(1)),
    'server CPU µs/req': '',
    bytes: '',
    'non-2xx': visible.refused,
  });
  writeReport({
    bench: 'data',
    goal: `account reads ≥ ${READ_SHARE_GOAL * 100} % of hello-world req/s on the same HTTP layer; a trade's position visible within ${VISIBLE_P99_GOAL_MS} ms of its ack (p99) under a steady order load`,
    rows,
    figures: {
      'hello world req/s (median)': Math.round(helloRps),
      'reads (cached) worst share of hello world': Number(worst.cached.toFixed(3)),
      'reads (built afresh) worst share of hello world': Number(worst.built.toFixed(3)),
      'reads (cached) worst share of a prepared body of the same size': Number(worst.cachedOfSize.toFixed(3)),
      'goal met: reads >= 30 % of hello world': worst.cached >= READ_SHARE_GOAL,
      'ack to visible p50 ms': Number(visible.p50Ms.toFixed(1)),
      'ack to visible p99 ms': Number(visible.p99Ms.toFixed(1)),
      'ack to visible max ms': Number(visible.maxMs.toFixed(1)),
      'ack to visible samples': visible.samples,
      'ack to in the ledger (ingest) p50 ms': Number(visible.ledgerP50Ms.toFixed(1)),
      'ack to in the ledger (ingest) p99 ms': Number(visible.ledgerP99Ms.toFixed(1)),
      'goal met: visible within 1 s p99': visible.p99Ms < VISIBLE_P99_GOAL_MS,
      'steady load orders/s (acked)': Math.round(visible.ordersPerSecond),
      'data service start (snapshot) ms': data.loadMs,
      positions: POSITIONS,
      holders: HOLDERS,
      connections: CONNECTIONS,
      'duration ms per run': DURATION_MS,
      rounds: REPEAT,
    },
  });
} finally {
  for (const child of servers) child.kill('SIGTERM');
  await db.drop();
}

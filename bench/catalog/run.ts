// Catalog read bench: a market and an event by id and by slug, filtered and sorted lists of 20,
// and search, against the catalog over the full demo catalog (2,000 events, ~8,000 markets,
// 20,000 comments), measured in the same run as a hand-written uWS hello world. Both servers
// run as their own processes on 127.0.0.1; the load comes from another (bench/load.ts).
// Throughput is closed-loop at full speed (medians over --repeat rounds, each between two
// hello-world runs); latency is then measured open-loop at half the goal rate (lookups at 25 %,
// lists at 12.5 % of hello-world req/s: the "p99 < 5 ms at half that rate"). Server CPU
// per request is read from /proc for each server process. Rate limits are off for the run.
// Usage: pnpm --filter @pmx/bench catalog [-- --duration 3000 --connections 32 --scale 1 --repeat 1]
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '@pmx/testkit';
import { forkServer, loadWithCpu, startService } from '../service-process.ts';
import { writeReport, type Row } from '../report.ts';
import type { PacedJob, PacedResult } from './paced-child.ts';

const { values } = parseArgs({
  // pnpm 10 passes the `--` of `pnpm … catalog -- --duration 1000` through.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    duration: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '500' },
    scale: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '1' },
  },
});
const DURATION_MS = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WARMUP_MS = Number(values.warmup);
const SCALE = values.scale;
const REPEAT = Math.max(1, Number(values.repeat));
const repo = fileURLToPath(new URL('../..', import.meta.url));

function log(line: string): void {
  console.log(`bench:catalog ${line}`);
}

function run(script: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`))));
  });
}

/** The catalog as its own process; resolves with its port once it answers. */
async function startCatalog(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const { child, found } = await startService('services/catalog/src/main.ts', env, (output) => {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
    if (match === null) return undefined;
    log(output.trim().split('\n').at(-1)!);
    return Number(match[1]);
  });
  return { child, port: found };
}

/** Open-loop load at a fixed rate from its own process (see paced-child.ts). */
function pacedLatency(url: string, rate: number, durationMs: number): Promise<PacedResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./paced-child.ts', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (result: PacedResult) => resolve(result));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`paced load exited ${code}`))));
    const job: PacedJob = { url, rate, durationMs, connections: CONNECTIONS };
    child.send(job);
  });
}

async function firstOf(url: string): Promise<any> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

// ---- set-up: a throwaway database with the demo catalog, the servers ----
const db = await createTestDatabase();
const servers: ChildProcess[] = [];
try {
  const loadStarted = performance.now();
  await run('services/catalog/src/load-demo.ts', { PMX_PG_URL: db.url, PMX_DEMO_SCALE: SCALE });
  const loadMs = performance.now() - loadStarted;
  const catalog = await startCatalog({
    PMX_PG_URL: db.url,
    PMX_CATALOG_DIRECT_PORT: '0',
    PMX_CATALOG_PRICE_REFRESH_MS: '0',
    PMX_CATALOG_POSITIONS_REFRESH_MS: '0',
  });
  // The same catalog without its response cache: what a list or search costs when built afresh.
  const uncached = await startCatalog({
    PMX_PG_URL: db.url,
    PMX_CATALOG_DIRECT_PORT: '0',
    PMX_CATALOG_PRICE_REFRESH_MS: '0',
    PMX_CATALOG_POSITIONS_REFRESH_MS: '0',
    PMX_CATALOG_RESPONSE_CACHE: '0',
  });
  const hello = await forkServer(new URL('./hello-server.ts', import.meta.url));
  servers.push(catalog.child, uncached.child, hello.child);
  const base = `http://127.0.0.1:${catalog.port}`;

  // Targets from the data itself: a mid-catalog market and event.
  const [market] = await firstOf(`${base}/markets?offset=4000&limit=1`);
  const [event] = await firstOf(`${base}/events?offset=1000&limit=1`);
  type Kind = 'lookup' | 'list' | 'search';
  const reads: { name: string; kind: Kind; path: string }[] = [
    { name: 'market by id', kind: 'lookup', path: `/markets/${market.id}` },
    { name: 'market by slug', kind: 'lookup', path: `/markets/slug/${market.slug}` },
    { name: 'market by condition id', kind: 'lookup', path: `/markets/${market.conditionId}` },
    { name: 'event by id', kind: 'lookup', path: `/events/${event.id}` },
    { name: 'event by slug', kind: 'lookup', path: `/events/slug/${event.slug}` },
    {
      name: 'markets: open, by 24h volume, 20',
      kind: 'list',
      path: '/markets?active=true&closed=false&order=volume24hr&ascending=false&limit=20',
    },
    {
      name: 'markets: tag crypto, open, by liquidity, 20',
      kind: 'list',
      path: '/markets?tag=crypto&closed=false&order=liquidity&limit=20',
    },
    {
      name: 'events: tag politics, open, by volume, 20',
      kind: 'list',
      path: '/events?tag_slug=politics&closed=false&order=volume&limit=20',
    },
    {
      name: 'events: open, by end date, offset 100, 20',
      kind: 'list',
      path: '/events?active=true&closed=false&order=endDate&ascending=true&offset=100&limit=20',
    },
    {
      name: 'comments of an event, 20',
      kind: 'list',
      path: `/comments?parent_entity_type=Event&parent_entity_id=${event.id}&limit=20`,
    },
    { name: 'search "bitcoin above"', kind: 'search', path: '/public-search?q=bitcoin%20above' },
  ];
  // Lists and search are served from the response cache when asked again unchanged (as here);
  // each is also measured on the catalog without it, i.e. built afresh every time.
  const scenarios = reads.flatMap((read) => {
    const cached = { ...read, server: catalog, cache: read.kind === 'lookup' ? '' : 'cached' };
    return read.kind === 'lookup' ? [cached] : [cached, { ...read, server: uncached, cache: 'built' }];
  });
  /** The goals as shares of hello-world throughput; latency is checked at half of them. */
  const GOAL_SHARE: Record<Exclude<Kind, 'search'>, number> = { lookup: 0.5, list: 0.25 };

  const measure = (url: string, pid: number) =>
    loadWithCpu({ url, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS }, pid);
  type Measured = Awaited<ReturnType<typeof measure>>;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  log(
    `${REPEAT} round(s) of ${scenarios.length} runs between two hello-world runs, ${DURATION_MS} ms each (+${WARMUP_MS} ms warm-up), ${CONNECTIONS} connections`,
  );
  const helloUrl = `http://127.0.0.1:${hello.port}/hello`;
  const helloRuns: Measured[] = [];
  const runs: Measured[][] = scenarios.map(() => []);
  for (let round = 0; round < REPEAT; round++) {
    // Hello world before and after each round, so a noisy neighbour shifts both sides alike.
    helloRuns.push(await measure(helloUrl, hello.child.pid!));
    for (const [i, s] of scenarios.entries()) {
      const m = await measure(`http://127.0.0.1:${s.server.port}${s.path}`, s.server.child.pid!);
      runs[i]!.push(m);
      log(
        `${s.name}${s.cache === 'built' ? ' (no response cache)' : ''}: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms.toFixed(2)} ms, ${m.cpuPerRequest.toFixed(1)} µs CPU/req`,
      );
    }
    helloRuns.push(await measure(helloUrl, hello.child.pid!));
  }
  const helloRps = median(helloRuns.map((m) => m.rps));
  log(
    `hello world: ${Math.round(helloRps)} req/s (median of ${helloRuns.length}); latency runs at half of each goal rate`,
  );

  const rows: Row[] = [];
  const pick = (m: Measured[], f: (x: Measured) => number) => median(m.map(f));
  // The latency floor of this machine: hello world at the two paced rates the reads get.
  const helloPaced = await pacedLatency(helloUrl, (helloRps * GOAL_SHARE.lookup) / 2, DURATION_MS);
  const helloPacedListRate = await pacedLatency(helloUrl, (helloRps * GOAL_SHARE.list) / 2, DURATION_MS);
  rows.push({
    read: 'hello world (raw uWS)',
    cache: '',
    'req/s': Math.round(helloRps),
    'of hello': '100 %',
    'p50 ms': Number(pick(helloRuns, (x) => x.p50Ms).toFixed(3)),
    'p99 ms': Number(pick(helloRuns, (x) => x.p99Ms).toFixed(3)),
    'server CPU µs/req': Number(pick(helloRuns, (x) => x.cpuPerRequest).toFixed(1)),
    bytes: 17,
    'paced req/s': Math.round(helloPaced.rps),
    'paced p50 ms': Number(helloPaced.p50Ms.toFixed(3)),
    'paced p99 ms': Number(helloPaced.p99Ms.toFixed(3)),
    'non-200': 0,
  });
  const worst = { lookup: Infinity, list: Infinity, listBuilt: Infinity };
  let worstPacedP99 = 0;
  for (const [i, s] of scenarios.entries()) {
    const url = `http://127.0.0.1:${s.server.port}${s.path}`;
    const m = runs[i]!;
    const rps = pick(m, (x) => x.rps);
    const share = rps / helloRps;
    if (s.cache === 'built') {
      if (s.kind === 'list') worst.listBuilt = Math.min(worst.listBuilt, share);
    } else if (s.kind !== 'search') worst[s.kind] = Math.min(worst[s.kind], share);
    // Search has no goal: it is paced at half its own rate.
    const paced = await pacedLatency(
      url,
      s.kind === 'search' ? rps / 2 : (helloRps * GOAL_SHARE[s.kind]) / 2,
      DURATION_MS,
    );
    if (s.kind !== 'search') worstPacedP99 = Math.max(worstPacedP99, paced.p99Ms);
    rows.push({
      read: s.name,
      cache: s.cache,
      'req/s': Math.round(rps),
      'of hello': `${Math.round(share * 100)} %`,
      'p50 ms': Number(pick(m, (x) => x.p50Ms).toFixed(3)),
      'p99 ms': Number(pick(m, (x) => x.p99Ms).toFixed(3)),
      'server CPU µs/req': Number(pick(m, (x) => x.cpuPerRequest).toFixed(1)),
      bytes: (await (await fetch(url)).text()).length,
      'paced req/s': Math.round(paced.rps),
      'paced p50 ms': Number(paced.p50Ms.toFixed(3)),
      'paced p99 ms': Number(paced.p99Ms.toFixed(3)),
      'non-200':
        m.reduce((sum, x) => sum + x.requests - (x.statusCounts['200'] ?? 0) + x.errors, 0) +
        paced.non200 +
        paced.errors,
    });
  }
  const figures: Record<string, number | string | boolean> = {
    'hello world req/s (median)': Math.round(helloRps),
    'lookups (id/slug) worst share of hello world': Number(worst.lookup.toFixed(3)),
    'lists of 20 worst share of hello world': Number(worst.list.toFixed(3)),
    'lists of 20 built afresh (no response cache) worst share of hello world': Number(worst.listBuilt.toFixed(3)),
    'worst p99 at half the goal rate (lookups 25 %, lists 12.5 % of hello), ms': Number(worstPacedP99.toFixed(3)),
    "hello world p99 at the lookups' paced rate, ms": Number(helloPaced.p99Ms.toFixed(3)),
    "hello world p99 at the lists' paced rate, ms": Number(helloPacedListRate.p99Ms.toFixed(3)),
    'goal met: lookups >= 50 %': worst.lookup >= 0.5,
    'goal met: lists >= 25 %': worst.list >= 0.25,
    'goal met: lists >= 25 % even built afresh': worst.listBuilt >= 0.25,
    'goal met: p99 < 5 ms at half the goal rate': worstPacedP99 < 5,
    'demo scale': Number(SCALE),
    'demo load ms': Math.round(loadMs),
    connections: CONNECTIONS,
    'duration ms per run': DURATION_MS,
    rounds: REPEAT,
  };
  writeReport({
    bench: 'catalog',
    goal: 'catalog reads ≥ 50 % of hello-world req/s for id/slug lookups, ≥ 25 % for filtered lists of 20; p99 < 5 ms at half that rate (paced columns)',
    rows,
    figures,
  });
} finally {
  for (const child of servers) child.kill('SIGTERM');
  await db.drop();
}

// Cluster bench (docs/design/cluster.md): what an order costs the gateway and the core, measured
// in one run against its peer, today's whole clob in one process under the same load; the
// cluster's capacity on paper from those figures; and the order rate through the edge with one and
// with two gateways. Every server is a process of its own over a throwaway database and Redis
// prefix; CPU is each process's user + system time from /proc over the timed load, per order
// acknowledged. The load client shares the two cores. The goal: the core's CPU per order at most
// 20 % of the whole clob's, so that one core takes what five gateways verify.
// Usage: pnpm --filter @pmx/bench cluster [-- --duration 4000 --connections 64]
import { type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { shardQueueName } from '@pmx/events';
import { startEdge, type EdgeHarness } from '@pmx/edge/testing';
import { createTempDir } from '@pmx/testkit';
import { processCpuUs } from '../host-cpu.ts';
import { writeReport, type Row } from '../report.ts';
import { orderLoad, type MeasuredLoad } from '../clob/order-load.ts';
import {
  authedRequest,
  hyphenated,
  makeTrader,
  orders,
  type BenchTrader,
  type PreparedRequest,
} from '../clob/signed-orders.ts';
import { ClusterRig } from './cluster-rig.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    duration: { type: 'string', default: '4000' },
    connections: { type: 'string', default: '64' },
    traders: { type: 'string', default: '8' },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const TRADERS = Number(values.traders);
const FUNDS = Math.min(1e15, Math.floor(Number.MAX_SAFE_INTEGER / (2 * TRADERS) / 1e6) * 1e6);
/** Signed orders per timed phase and per warm-up: more than the fastest phase sends. */
const PER_PHASE = 40_000;
const WARMUP = 6_000;
const BASE_PORT = 21_000 + Math.floor(Math.random() * 2000);
const CORE_PORT = BASE_PORT;
const GATEWAY_PORTS = [BASE_PORT + 1, BASE_PORT + 2];
const CLOB_PORT = BASE_PORT + 3;
const dir = await createTempDir('pmx-bench-cluster-');
const rig = await ClusterRig.create();
const SHARDS = rig.shards;

function log(line: string): void {
  console.log(`bench:cluster ${line}`);
}

/** No ingest runs (it would take the same cores): the shards' queued events are dropped between phases. */
async function drainShardQueues(): Promise<void> {
  await Promise.all(
    Array.from({ length: SHARDS }, async (_, k) => {
      const queue = new Queue(shardQueueName(k), {
        connection: rig.redis,
        prefix: rig.prefix.slice(0, -1),
        skipVersionCheck: true,
      });
      await queue.drain();
      await queue.close();
    }),
  );
}

/** A fresh market, the traders funded in it, and signed orders for it (SVC_X names; `hyphenated` for a direct port). */
async function market(operatorBase: string, traders: BenchTrader[], count: number): Promise<PreparedRequest[]> {
  const yes = await rig.market(operatorBase);
  await rig.fund(operatorBase, traders, FUNDS / 4, yes);
  const now = Math.floor(Date.now() / 1000);
  return orders(traders, yes, count).map((o, i) => authedRequest(traders[i % TRADERS]!, 'POST', '/order', o, now));
}

interface Phase {
  load: MeasuredLoad;
  /** CPU µs per acknowledged order of each measured process. */
  cpuUs: number[];
}

/** A warm-up (not counted), then the timed load, with each process's CPU per acknowledged order. */
async function phase(url: string, requests: PreparedRequest[], processes: ChildProcess[]): Promise<Phase> {
  await orderLoad({
    url,
    requests: requests.slice(0, WARMUP),
    connections: CONNECTIONS,
    durationMs: 1500,
    ratePerSecond: 0,
  });
  await drainShardQueues();
  const before = processes.map((p) => processCpuUs(p.pid!) ?? NaN);
  const load = await orderLoad({
    url,
    requests: requests.slice(WARMUP),
    connections: CONNECTIONS,
    durationMs: DURATION,
    ratePerSecond: 0,
  });
  const after = processes.map((p) => processCpuUs(p.pid!) ?? NaN);
  await drainShardQueues();
  return { load, cpuUs: after.map((a, i) => (a - before[i]!) / Math.max(1, load.ok)) };
}

const rows: Row[] = [];
const figures: Record<string, number | string | boolean> = {};
const edges: EdgeHarness[] = [];
try {
  // The peer: today's whole clob, gateway and core in one process, loaded on its direct port.
  const clobUrl = `http://127.0.0.1:${CLOB_PORT}`;
  const { child: clob } = await rig.start(
    'services/clob/src/main.ts',
    { PMX_CLOB_DIRECT_PORT: String(CLOB_PORT), PMX_CLOB_SOCKET: '' },
    { url: `${clobUrl}/` },
  );
  const traders: BenchTrader[] = [];
  for (let i = 0; i < TRADERS; i++) traders.push(await makeTrader(clobUrl, 'direct'));
  log('signing orders…');
  const whole = await phase(clobUrl, hyphenated(await market(clobUrl, traders, PER_PHASE + WARMUP)), [clob]);
  rows.push({
    setup: 'whole clob, one process (peer)',
    'orders/s': Math.round(whole.load.rps),
    'CPU µs/order': Math.round(whole.cpuUs[0]!),
  });
  await rig.stop(clob);

  // The split: a core and one gateway, loaded on the gateway's direct port.
  const coreUrl = `http://127.0.0.1:${CORE_PORT}`;
  const { child: core } = await rig.start(
    'services/clob/src/core-main.ts',
    { PMX_CORE_PORT: String(CORE_PORT) },
    { url: `${coreUrl}/health` },
  );
  const gateways: ChildProcess[] = [];
  const sockets = GATEWAY_PORTS.map((port) => join(dir.path, `gateway-${port}.sock`));
  for (const [i, port] of GATEWAY_PORTS.entries())
    gateways.push(
      (
        await rig.start(
          'services/clob/src/gateway-main.ts',
          {
            PMX_CLOB_DIRECT_PORT: String(port),
            PMX_CLOB_SOCKET: sockets[i]!,
            PMX_CORE_URLS: `ws://127.0.0.1:${CORE_PORT}`,
          },
          { url: `http://127.0.0.1:${port}/` },
        )
      ).child,
    );
  const gatewayUrl = `http://127.0.0.1:${GATEWAY_PORTS[0]}`;
  const split = await phase(gatewayUrl, hyphenated(await market(coreUrl, traders, PER_PHASE + WARMUP)), [
    gateways[0]!,
    core,
  ]);
  const [gatewayUs, coreUs] = split.cpuUs as [number, number];
  rows.push(
    {
      setup: 'gateway (split, one gateway)',
      'orders/s': Math.round(split.load.rps),
      'CPU µs/order': Math.round(gatewayUs),
    },
    { setup: 'core (split, same run)', 'orders/s': Math.round(split.load.rps), 'CPU µs/order': Math.round(coreUs) },
  );

  // Through the edge: one gateway, then two.
  for (const count of [1, 2]) {
    const edge = await startEdge({
      PMX_RATE_LIMITS: 'false',
      PMX_EDGE_CLOB_SERVERS: sockets
        .slice(0, count)
        .map((s) => `unix@${s}`)
        .join(','),
      PMX_EDGE_CORE_SERVERS: `127.0.0.1:${CORE_PORT}`,
    });
    edges.push(edge);
    await new Promise((r) => setTimeout(r, 2500)); // the edge's first health checks
    const through = await phase(edge.clobUrl, await market(coreUrl, traders, PER_PHASE + WARMUP), [
      ...gateways.slice(0, count),
      core,
    ]);
    const cpu = through.cpuUs;
    rows.push({
      setup: `through the edge, ${count} gateway${count > 1 ? 's' : ''}`,
      'orders/s': Math.round(through.load.rps),
      'CPU µs/order': `gateways ${Math.round(cpu.slice(0, count).reduce((a, b) => a + b, 0))}, core ${Math.round(cpu[count]!)}`,
    });
    figures[`orders/s through the edge, ${count} gateway${count > 1 ? 's' : ''}`] = Math.round(through.load.rps);
    await edge.close();
    edges.pop();
  }

  const coreShare = coreUs / whole.cpuUs[0]!;
  figures['whole clob CPU µs/order (peer)'] = Math.round(whole.cpuUs[0]!);
  figures['gateway CPU µs/order'] = Math.round(gatewayUs);
  figures['core CPU µs/order'] = Math.round(coreUs);
  figures['core / whole clob CPU per order'] = Number(coreShare.toFixed(2));
  figures['goal met: core ≤ 20 % of the whole clob'] = coreShare <= 0.2;
  figures['capacity on paper: orders/s of one core (1 CPU)'] = Math.round(1e6 / coreUs);
  figures['gateway CPUs needed to feed one core'] = Number((gatewayUs / coreUs).toFixed(1));
  for (const child of [...gateways, core]) await rig.stop(child);
} finally {
  for (const edge of edges) await edge.close().catch(() => {});
  await rig.close();
  await dir.remove();
}

writeReport({
  bench: 'cluster',
  goal: 'core CPU per order ≤ 20 % of the whole clob’s (peer measured in the same run); capacity on paper; rate through the edge with 1 and 2 gateways',
  rows,
  figures,
});
process.exit(0);

// Engine bench: a mixed workload of 1M orders on one thread. Throughput through tinybench (whole
// runs on a fresh engine), then per-operation latency percentiles from a timed pass; the same
// workload into a public peer (nodejs-order-book, peer.ts) for its throughput, and both in
// lockstep for each order's fills and the books at the end (compare.ts; diverge.ts finds where
// books part).
// Usage: pnpm bench:engine [-- --orders 1000000 --markets 10]
import { parseArgs } from 'node:util';
import { OrderType, type MatchingEngine, type PlaceOrder, type Side } from '@pmx/matching';
import { Bench } from 'tinybench';
import { percentiles, writeReport, type Row } from '../report.ts';
import { compareWithPeer, freshEngine as engineFor } from './compare.ts';
import { playPeer } from './peer.ts';
import { LOT, OP_CANCEL, loadOrder, mixedWorkload, type Workload } from './workload.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'), // pnpm passes the `--` through
  options: {
    orders: { type: 'string', default: '1000000' },
    markets: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
  },
});
const ORDERS = Number(values.orders);
const MARKETS = Number(values.markets);
const RUNS = Number(values.runs);

const KIND_PASSIVE = 0;
const KIND_CROSSING = 1;
const KIND_TAKER = 2;
const KIND_CANCEL = 3;
const KIND_NAMES = ['place, rests', 'place, trades', 'FAK/FOK', 'cancel'];

function freshEngine(): MatchingEngine {
  return engineFor(MARKETS);
}

/**
 * Plays the workload into an engine the way a shard would: one reusable command object,
 * events drained every 64 operations. With `latency`, times every operation and records its kind.
 */
function play(engine: MatchingEngine, w: Workload, latency?: { ns: Float64Array; kind: Uint8Array }): number {
  const ring = new Float64Array(4096);
  let ringLen = 0;
  let ringPos = 0;
  let events = 0;
  const order: PlaceOrder = { market: 0, token: 0, side: 0, orderType: OrderType.GTC, price: 1, size: LOT, owner: 1 };
  for (let i = 0; i < w.count; i++) {
    const start = latency ? process.hrtime.bigint() : 0n;
    let kind = KIND_CANCEL;
    if (w.op[i] === OP_CANCEL) {
      if (ringLen > 0) engine.cancel(ring[w.pick[i]! % ringLen]!, i);
    } else {
      const result = engine.place(loadOrder(order, w, i), i);
      if (result.ok && result.status === 'live') {
        ring[ringPos] = result.orderId;
        ringPos = (ringPos + 1) & 4095;
        if (ringLen < 4096) ringLen++;
      }
      kind =
        order.orderType >= OrderType.FOK ? KIND_TAKER : result.ok && result.filled > 0 ? KIND_CROSSING : KIND_PASSIVE;
    }
    if (latency) {
      latency.ns[i] = Number(process.hrtime.bigint() - start);
      latency.kind[i] = kind;
    }
    if ((i & 63) === 63) events += engine.takeEvents().length;
  }
  return events + engine.takeEvents().length;
}

function timerOverheadNs(): number {
  const n = 200_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) process.hrtime.bigint();
  return Number(process.hrtime.bigint() - start) / n;
}

const workload = mixedWorkload(ORDERS, MARKETS);
let lastEvents = 0;
const bench = new Bench({ iterations: RUNS, warmupIterations: 1, time: 0, warmupTime: 0 });
bench.add(`engine: ${ORDERS.toLocaleString('en')} mixed orders`, () => {
  lastEvents = play(freshEngine(), workload);
});
await bench.run();
const task = bench.tasks[0]!;
if (task.result.state !== 'completed') throw new Error(`bench task ${task.result.state}`);
const runMs = task.result.latency.mean;
const ordersPerSec = ORDERS / (runMs / 1000);
const opsPerSec = workload.count / (runMs / 1000);

// The peer: whole runs on fresh books, timed the same way, and each order's fills beside pmx's.
// Two runs: the peer takes tens of seconds per run at 1M orders, JIT warm-up is lost in that.
const peerBench = new Bench({ iterations: Math.min(RUNS, 2), warmupIterations: 0, time: 0, warmupTime: 0 });
peerBench.add('nodejs-order-book: the same workload', () => playPeer(workload, MARKETS));
await peerBench.run();
const peerTask = peerBench.tasks[0]!;
if (peerTask.result.state !== 'completed') throw new Error(`peer bench task ${peerTask.result.state}`);
const peerRunMs = peerTask.result.latency.mean;
// Each order's fills and the books at the end, pmx beside the peer (compare.ts).
const peerDiff = compareWithPeer(workload, MARKETS);

const latency = { ns: new Float64Array(workload.count), kind: new Uint8Array(workload.count) };
play(freshEngine(), workload, latency);
const overhead = timerOverheadNs();
const rows: Row[] = [];
const figures: Record<string, number | string | boolean> = {};
for (let kind = -1; kind < KIND_NAMES.length; kind++) {
  const sample = kind < 0 ? latency.ns : latency.ns.filter((_, i) => latency.kind[i] === kind);
  if (sample.length === 0) continue;
  const [p50, p99, p999] = percentiles(sample, [50, 99, 99.9]).map((v) => Math.max(0, v - overhead));
  const name = kind < 0 ? 'all operations' : KIND_NAMES[kind]!;
  rows.push({
    operation: name,
    count: sample.length,
    'p50 ns': Math.round(p50!),
    'p99 ns': Math.round(p99!),
    'p99.9 ns': Math.round(p999!),
  });
  if (kind < 0) Object.assign(figures, { p50Ns: Math.round(p50!), p99Ns: Math.round(p99!), p999Ns: Math.round(p999!) });
}
// Removing resting orders oldest first, as fills in time priority and cancel-all do: each removal
// must stay O(1) however many orders rest (a hash of sequential ids once made it O(N), 2.8 s here).
const DEEP = 40_000;
const deep = freshEngine();
const resting: PlaceOrder = {
  market: 0,
  token: 0,
  side: 1 as Side,
  orderType: OrderType.GTC,
  price: 60,
  size: 5 * LOT,
  owner: 7,
};
for (let i = 0; i < DEEP; i++) {
  resting.price = 60 + (i % 30);
  if (!deep.place(resting, 1).ok) throw new Error('a deep-book order was refused');
}
deep.takeEvents();
let started = performance.now();
deep.cancelOwner(7, undefined, 2);
const cancelAllMs = performance.now() - started;
if (deep.openOrderCount !== 0) throw new Error('the deep-book cancel-all left orders');
for (let i = 0; i < DEEP; i++) {
  resting.price = 60 + (i % 30);
  deep.place(resting, 3);
}
deep.takeEvents();
started = performance.now();
const swept = deep.place(
  { market: 0, token: 0, side: 0 as Side, orderType: OrderType.FAK, price: 99, size: 5000 * 5 * LOT, owner: 8 },
  4,
);
if (!swept.ok || swept.filled !== 5000 * 5 * LOT) throw new Error('the deep-book FAK did not fill 5,000 makers');
const sweepMs = performance.now() - started;
rows.push({
  operation: `cancel-all of ${DEEP.toLocaleString('en')} resting orders`,
  count: DEEP,
  'run ms': Number(cancelAllMs.toFixed(1)),
});
rows.push({ operation: 'FAK filling the 5,000 oldest makers', count: 5000, 'run ms': Number(sweepMs.toFixed(1)) });
Object.assign(figures, { deepCancelAllMs: Number(cancelAllMs.toFixed(1)), deepSweepMs: Number(sweepMs.toFixed(1)) });

const peerOrdersPerSec = ORDERS / (peerRunMs / 1000);
rows.unshift(
  {
    operation: 'throughput',
    count: workload.count,
    'orders/s': Math.round(ordersPerSec),
    'ops/s': Math.round(opsPerSec),
    'run ms': Number(runMs.toFixed(1)),
  },
  {
    operation: 'peer: nodejs-order-book, same workload',
    count: workload.count,
    'orders/s': Math.round(peerOrdersPerSec),
    'ops/s': Math.round(workload.count / (peerRunMs / 1000)),
    'run ms': Number(peerRunMs.toFixed(1)),
  },
  {
    operation: 'orders whose fills differ between pmx and the peer',
    count: peerDiff.disagreements,
    'lots filled (pmx)': peerDiff.pmxLots,
    'lots filled (peer)': peerDiff.peerLots,
  },
  {
    // The peer would expire the taker's own crossed orders instead of refusing (peer.ts).
    operation: "FAK/FOK refused on pmx's rule before the peer (own orders crossed)",
    count: peerDiff.refused,
    'own orders crossed': peerDiff.refusedOverOwnOrders,
  },
);
Object.assign(figures, {
  orders: ORDERS,
  cancels: workload.cancels,
  markets: MARKETS,
  eventsPerRun: lastEvents,
  ordersPerSec: Math.round(ordersPerSec),
  opsPerSec: Math.round(opsPerSec),
  timerOverheadNs: Math.round(overhead),
  peerOrdersPerSec: Math.round(peerOrdersPerSec),
  ratioToPeer: Number((ordersPerSec / peerOrdersPerSec).toFixed(2)),
  fillDisagreementsWithPeer: peerDiff.disagreements,
  firstFillDifference: peerDiff.firstFillDifference ?? 'none',
  booksEqualWithPeerAtEnd: peerDiff.booksEqual,
  takersRefusedBeforePeer: peerDiff.refused,
  takersRefusedOverOwnOrders: peerDiff.refusedOverOwnOrders,
  goalOrdersPerSec: 3_000_000,
  goalP99Ns: 2000,
  meetsGoal: ordersPerSec >= 3_000_000 && (figures.p99Ns as number) < 2000,
});
writeReport({
  bench: 'engine',
  goal: '≥ 3M orders/s on one thread, p99 < 2 µs (latencies net of timer overhead)',
  rows,
  figures,
  anchors: [
    {
      figure: 'pmx engine orders/s',
      value: Math.round(ordersPerSec),
      anchor: 'nodejs-order-book, same workload',
      anchorValue: Math.round(peerOrdersPerSec),
      unit: 'orders/s',
    },
    {
      figure: 'pmx engine orders/s',
      value: Math.round(ordersPerSec),
      anchor: 'goal',
      anchorValue: 3_000_000,
      unit: 'orders/s',
    },
  ],
});

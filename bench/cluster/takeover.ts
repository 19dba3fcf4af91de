// Takeover bench (docs/design/cluster.md "Failover"): the time from the active core's SIGKILL to
// the next order a gateway acknowledges, with 0, 10,000 and 100,000 open orders resting in the
// books, and what bounds it, from the standby's own account of its recovery: taking the shard
// locks, loading markets, ingest's drain of the queues, the ledger read, the rebuild of risk, open
// orders and books. Two cores (both standbys: the first to take the locks is active, as
// infra/cluster.sh runs them), one gateway, ingest, over a throwaway database and Redis prefix.
// After each kill the dead core is started again and stands by for the next round.
// Goal (issue 27): orders acknowledged again within 2 s of a core's death.
// Usage: pnpm --filter @pmx/bench cluster:takeover [-- --open 0,10000,100000]
import { parseArgs } from 'node:util';
import { connectPostgres } from '@pmx/db';
import { writeReport, type Row } from '../report.ts';
import { orderLoad } from '../clob/order-load.ts';
import { authedRequest, signOrder, type BenchTrader, type PreparedRequest } from '../clob/signed-orders.ts';
import { dashed, hyphenated, makeTrader } from '../clob/signed-orders.ts';
import { ClusterRig, type RigProcess } from './cluster-rig.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: { open: { type: 'string', default: '0,10000,100000' } },
});
const ROUNDS = values.open.split(',').map(Number);
const TRADERS = 8;
/** Orders per POST /orders, the contract's most. */
const PER_BATCH = 15;
/** Probes signed per round: one is sent every PROBE_GAP_MS until one is acknowledged. */
const PROBES = 2_000;
const PROBE_GAP_MS = 5;
const GOAL_MS = 2_000;
const BASE_PORT = 23_000 + Math.floor(Math.random() * 2000);
const CORE_PORTS = [BASE_PORT, BASE_PORT + 1];
const GATEWAY_PORT = BASE_PORT + 2;
const gatewayUrl = `http://127.0.0.1:${GATEWAY_PORT}`;
const coreUrl = (i: number) => `http://127.0.0.1:${CORE_PORTS[i]}`;

function log(line: string): void {
  console.log(`bench:takeover ${line}`);
}

const rig = await ClusterRig.create();
const sql = connectPostgres(rig.db.url, { max: 2 });

function startCore(i: number): Promise<RigProcess> {
  return rig.start(
    'services/clob/src/core-main.ts',
    { PMX_CORE_PORT: String(CORE_PORTS[i]), PMX_CORE_STANDBY: 'true', PMX_LOG_LEVEL: 'info' },
    { url: `${coreUrl(i)}/health`, anyAnswer: true },
  );
}

async function activeCore(cores: RigProcess[]): Promise<number> {
  for (;;) {
    for (const i of [0, 1]) {
      const ok = await fetch(`${coreUrl(i)}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return i;
    }
    if (cores.every((c) => c.child.exitCode !== null)) throw new Error('no core runs');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `count` resting BUYs (1..40 cents, 5 tokens: nothing crosses) as POST /orders of 15 from one trader each. */
function restingBatches(traders: BenchTrader[], token: string, count: number): PreparedRequest[] {
  const now = Math.floor(Date.now() / 1000);
  const out: PreparedRequest[] = [];
  for (let b = 0; b * PER_BATCH < count; b++) {
    const trader = traders[b % TRADERS]!;
    const batch = Array.from({ length: Math.min(PER_BATCH, count - b * PER_BATCH) }, (_, k) =>
      signOrder(trader, token, 'BUY', 1 + ((b * PER_BATCH + k) % 40), 5),
    );
    out.push(authedRequest(trader, 'POST', '/orders', batch, now));
  }
  return hyphenated(out);
}

async function liveOrders(): Promise<number> {
  const [row] = await sql<{ n: string }[]>`SELECT count(*) AS n FROM orders WHERE status = 'live'`;
  return Number(row!.n);
}

/** The open orders in the ledger once ingest has applied what the core queued: at least `target`, and still. */
async function settledLiveOrders(target: number): Promise<number> {
  let last = -1;
  for (let waited = 0; waited < 1200; waited++) {
    const now = await liveOrders();
    if (now >= target && now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the ledger did not reach ${target} open orders`);
}

/** Sends one probe order after another until one is acknowledged; when it was (performance.now()). */
async function firstAck(probes: PreparedRequest[]): Promise<number> {
  for (const probe of probes) {
    const ok = await fetch(`${gatewayUrl}${probe.path}`, {
      method: 'POST',
      headers: dashed(probe.headers),
      body: probe.body,
    }).then(
      async (r) => r.ok && ((await r.json()) as { success?: boolean }).success === true,
      () => false,
    );
    if (ok) return performance.now();
    await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  throw new Error(`no probe of ${probes.length} was acknowledged`);
}

function parsed(line: string): Record<string, any>[] {
  try {
    return [JSON.parse(line) as Record<string, any>];
  } catch {
    return [];
  }
}

/** The new active core's account of its takeover: its JSON log lines after the kill. */
function recoveryOf(core: RigProcess, killedAt: number): Record<string, number> {
  const lines = core.output.filter((o) => o.at >= killedAt).flatMap((o) => parsed(o.line));
  const locks = lines.find((l) => /took the shard locks/.test(l.msg));
  const open = lines.find((l) => /trading open/.test(l.msg));
  if (locks === undefined || open === undefined) throw new Error('the standby did not log its takeover');
  return {
    locksMs: Date.parse(locks.time) - killedAt,
    loadMs: open.loadMs,
    drainMs: open.drainMs,
    readMs: open.readMs,
    rebuildMs: open.rebuildMs,
    openOrders: open.openOrders,
  };
}

const rows: Row[] = [];
const figures: Record<string, number | string | boolean> = {};
try {
  await rig.start('services/ingest/src/main.ts', { PMX_LOG_LEVEL: 'info' }, { line: 'consuming' });
  const cores = [await startCore(0)];
  await activeCore(cores);
  cores.push(await startCore(1));
  await rig.start(
    'services/clob/src/gateway-main.ts',
    {
      PMX_CLOB_DIRECT_PORT: String(GATEWAY_PORT),
      PMX_CLOB_SOCKET: '',
      PMX_CORE_URLS: CORE_PORTS.map((p) => `ws://127.0.0.1:${p}`).join(','),
      PMX_CORE_WAIT_MS: '10000',
    },
    { url: `${gatewayUrl}/` },
  );
  const traders: BenchTrader[] = [];
  for (let i = 0; i < TRADERS; i++) traders.push(await makeTrader(gatewayUrl, 'direct'));
  const token = await rig.market(coreUrl(await activeCore(cores)));
  await rig.fund(coreUrl(await activeCore(cores)), traders, 1e13);

  let resting = 0;
  for (const target of ROUNDS) {
    if (target > resting) {
      log(`placing ${target - resting} resting orders…`);
      const placed = await orderLoad({
        url: gatewayUrl,
        requests: restingBatches(traders, token, target - resting),
        connections: 16,
        durationMs: 600_000,
        ratePerSecond: 0,
      });
      log(`placed at ${Math.round(placed.rps * PER_BATCH)} orders/s`);
    }
    resting = await settledLiveOrders(target);
    const now = Math.floor(Date.now() / 1000);
    const probes = Array.from({ length: PROBES }, (_, i) =>
      authedRequest(
        traders[i % TRADERS]!,
        'POST',
        '/order',
        signOrder(traders[i % TRADERS]!, token, 'BUY', 41, 5),
        now,
      ),
    );
    const active = await activeCore(cores);
    const killedWall = Date.now();
    const killedAt = performance.now();
    cores[active]!.child.kill('SIGKILL');
    const ackMs = (await firstAck(probes)) - killedAt;
    const standby = 1 - active;
    const steps = recoveryOf(cores[standby]!, killedWall);
    log(`${resting} open orders: acknowledged again ${Math.round(ackMs)} ms after the SIGKILL`);
    rows.push({
      'open orders': resting,
      'SIGKILL → ack ms': Math.round(ackMs),
      'locks ms': Math.round(steps.locksMs!),
      'markets ms': Math.round(steps.loadMs!),
      'ingest drain ms': Math.round(steps.drainMs!),
      'ledger read ms': Math.round(steps.readMs!),
      'rebuild ms': Math.round(steps.rebuildMs!),
    });
    figures[`SIGKILL → ack ms, ${target} open orders`] = Math.round(ackMs);
    figures[`goal met (≤ ${GOAL_MS} ms), ${target} open orders`] = ackMs <= GOAL_MS;
    // The supervisor's restart: the dead core stands by for the next round.
    cores[active] = await startCore(active);
    resting = await settledLiveOrders(resting);
  }
} finally {
  await sql.end({ timeout: 2 });
  await rig.close();
}

writeReport({
  bench: 'cluster-takeover',
  goal: `orders acknowledged again within ${GOAL_MS} ms of the active core's SIGKILL, with 0, 10,000 and 100,000 open orders`,
  rows,
  figures,
});
process.exit(0);

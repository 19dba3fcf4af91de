// The data bench's second half: how long after a trade's ack its position shows in GET /positions,
// under a steady order load. The clob, ingest and the data service run as their own processes over
// a throwaway database and Redis prefix. The load is pairs of pre-signed orders on one market (a
// SELL rests, a BUY takes it) sent at a fixed rate; meanwhile a probe buyer trades on a market of
// its own, one trade at a time, and GET /positions is polled every few ms from its ack until the
// probe's size shows the trade: that wait is one sample.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { cleanupRedisPrefix, testkitConfig, testRedisPrefix, type TestDatabase } from '@pmx/testkit';
import { percentiles } from '../report.ts';
import { startService } from '../service-process.ts';
import { authedRequest, dashed, makeTrader, signOrder, type BenchTrader } from '../clob/signed-orders.ts';

const POLL_MS = 5;
const GIVE_UP_MS = 10_000;

export interface VisibilityOptions {
  db: TestDatabase;
  /** Order pairs (a resting SELL and the BUY that takes it) per second. */
  pairsPerSecond: number;
  seconds: number;
  log: (line: string) => void;
}

export interface VisibilityResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the ack to the trade's position in the ledger (Postgres), the part ingest takes. */
  ledgerP50Ms: number;
  ledgerP99Ms: number;
  /** Orders the load had acked per second over the run (its own and the probe's). */
  ordersPerSecond: number;
  /** Orders not acked with 200 and success. */
  refused: number;
}

export async function ackToVisible(options: VisibilityOptions): Promise<VisibilityResult> {
  const prefix = testRedisPrefix();
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const dataPort = port + 1000;
  const base = `http://127.0.0.1:${port}`;
  const operatorKey = randomBytes(16).toString('hex');
  const common = {
    PMX_PG_URL: options.db.url,
    PMX_REDIS_URL: testkitConfig.redisUrl,
    PMX_REDIS_PREFIX: prefix.slice(0, -1),
    PMX_SHARDS: '2',
    PMX_LOG_LEVEL: 'info',
  };
  const children: ChildProcess[] = [];
  const when = (text: string) => (output: string) => (output.includes(text) ? true : undefined);
  const start = async (script: string, env: Record<string, string>) =>
    children.push((await startService(script, env, when(script.includes('ingest') ? 'consuming' : 'listening on'))).child);
  try {
    await start('services/ingest/src/main.ts', common);
    await start('services/clob/src/main.ts', {
      ...common,
      PMX_CLOB_DIRECT_PORT: String(port),
      PMX_OPERATOR_KEY: operatorKey,
      PMX_HISTORY: 'false',
      PMX_REPLAY_WINDOW_SECONDS: '1800',
    });
    await start('services/data/src/main.ts', {
      ...common,
      PMX_DATA_DIRECT_PORT: String(dataPort),
      PMX_DATA_CLOB_URL: base,
      PMX_DATA_PRICE_REFRESH_MS: '5000',
    });
    return await measure(options, base, `http://127.0.0.1:${dataPort}`, operatorKey);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    const redis = new Redis(testkitConfig.redisUrl);
    await cleanupRedisPrefix(redis, prefix).finally(() => redis.disconnect());
  }
}

async function measure(
  options: VisibilityOptions,
  base: string,
  dataUrl: string,
  operatorKey: string,
): Promise<VisibilityResult> {
  const operator = async (path: string, body: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.ok) return response.json();
      // 425 while the shards recover at start.
      if (response.status !== 425 || attempt === 100) throw new Error(`${path}: ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const market = async (name: string) => {
    const conditionId = `0x${randomBytes(32).toString('hex')}`;
    const yes = BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
    const no = BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
    await operator('/operator/markets', {
      condition_id: conditionId,
      question: `${name}?`,
      tokens: [
        { token_id: yes, outcome: 'Yes' },
        { token_id: no, outcome: 'No' },
      ],
      tick_size: '0.01',
      min_order_size: '5',
    });
    return { conditionId, yes };
  };
  const load = await market('Load');
  const probeMarket = await market('Probe');
  const pairs = Math.ceil(options.pairsPerSecond * options.seconds);
  const fund = async (trader: BenchTrader, asset: string) =>
    operator('/operator/deposit', { address: trader.address, asset, amount: String(10n ** 12n) });
  const [seller, buyer, probeSeller, probe] = await Promise.all([0, 1, 2, 3].map(() => makeTrader(base, 'direct')));
  await Promise.all([
    fund(seller!, load.yes),
    fund(buyer!, 'collateral'),
    fund(probeSeller!, probeMarket.yes),
    fund(probe!, 'collateral'),
  ]);
  options.log(`signing ${pairs} order pairs…`);
  const sells = Array.from({ length: pairs }, () => signOrder(seller!, load.yes, 'SELL', 50, 5));
  const buys = Array.from({ length: pairs }, () => signOrder(buyer!, load.yes, 'BUY', 50, 5));

  let acked = 0;
  let refused = 0;
  const place = async (trader: BenchTrader, order: Record<string, unknown>): Promise<number> => {
    const request = authedRequest(trader, 'POST', '/order', order, Math.floor(Date.now() / 1000));
    const response = await fetch(`${base}/order`, { method: 'POST', headers: dashed(request.headers), body: request.body });
    const reply = (await response.json()) as { success?: boolean };
    const at = performance.now();
    if (response.ok && reply.success === true) acked++;
    else refused++;
    return at;
  };

  // The steady load: every 10 ms, the pairs due by now (a SELL, then the BUY that takes it).
  const started = performance.now();
  const end = started + options.seconds * 1000;
  let sent = 0;
  const inFlight = new Set<Promise<unknown>>();
  const timer = setInterval(() => {
    const due = Math.min(pairs, Math.floor(((performance.now() - started) / 1000) * options.pairsPerSecond));
    for (; sent < due; sent++) {
      const i = sent;
      const pair = place(seller!, sells[i]!).then(() => place(buyer!, buys[i]!));
      inFlight.add(pair);
      void pair.finally(() => inFlight.delete(pair));
    }
  }, 10);

  // The probe, meanwhile: one trade at a time, each waited for in the data service.
  // The ledger is polled too (in turn with the service), to tell ingest's share from the service's.
  const samples: number[] = [];
  const inLedger: number[] = [];
  const holder = probe!.address.toLowerCase();
  for (let k = 1; performance.now() < end; k++) {
    await place(probeSeller!, signOrder(probeSeller!, probeMarket.yes, 'SELL', 50, 5));
    const ackedAt = await place(probe!, signOrder(probe!, probeMarket.yes, 'BUY', 50, 5));
    const path = `/positions?user=${probe!.address}&market=${probeMarket.conditionId}`;
    let ledgerAt: number | undefined;
    for (;;) {
      if (ledgerAt === undefined) {
        const [row] = await options.db.sql<{ size: string }[]>`
          SELECT size::text FROM positions WHERE address = ${holder} AND asset = ${probeMarket.yes}`;
        if (row !== undefined && Number(row.size) === 5_000_000 * k) ledgerAt = performance.now();
      }
      const [position] = (await (await fetch(`${dataUrl}${path}`)).json()) as { size: number }[];
      const now = performance.now();
      if (position?.size === 5 * k) {
        samples.push(now - ackedAt);
        inLedger.push((ledgerAt ?? now) - ackedAt);
        break;
      }
      if (now - ackedAt > GIVE_UP_MS) throw new Error(`probe trade ${k} never showed in GET /positions`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  clearInterval(timer);
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  const [p50, p99] = percentiles(Float64Array.from(samples), [50, 99]);
  const [ledgerP50, ledgerP99] = percentiles(Float64Array.from(inLedger), [50, 99]);
  return {
    samples: samples.length,
    p50Ms: p50!,
    p99Ms: p99!,
    maxMs: Math.max(...samples),
    ledgerP50Ms: ledgerP50!,
    ledgerP99Ms: ledgerP99!,
    ordersPerSecond: acked / elapsed,
    refused,
  };
}

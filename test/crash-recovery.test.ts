// Crash recovery across real processes (docs/design/durability.md): orders flow through the
// trading front end while it and ingest are killed with SIGKILL at random points, several times,
// and restarted.
// Afterwards every acknowledged order and trade is in Postgres exactly once, the books and
// balances a restart rebuilds equal those before it, and the ledger balances and conserves.
import { randomBytes, randomInt } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardQueueName } from '@pmx/events';
import { checkLedger } from '@pmx/ledger';
import {
  Trader,
  cleanupRedisPrefix,
  createTempDir,
  createTestDatabase,
  limit,
  operatorCall,
  testkitConfig,
  testRedisPrefix,
  type TempDir,
  type TestDatabase,
} from '@pmx/testkit';
import { ServiceProcesses } from './service-processes.ts';

const USDC = 1_000_000n;
const SHARDS = 2;
// Fixed across restarts, so not the kernel's pick: below Linux's ephemeral range (32768–60999),
// where outgoing connections of the parallel test files take their local ports.
const port = 20_000 + 2 * randomInt(6_000);
const url = `http://127.0.0.1:${port}`;
const operatorKey = randomBytes(16).toString('hex');

let db: TestDatabase;
let dir: TempDir;
const prefix = testRedisPrefix();
const redis = new Redis(testkitConfig.redisUrl);
const processes = new ServiceProcesses<'clob' | 'ingest'>();

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PMX_PG_URL: db.url,
    PMX_REDIS_URL: testkitConfig.redisUrl,
    PMX_REDIS_PREFIX: prefix.slice(0, -1),
    PMX_SHARDS: String(SHARDS),
    PMX_VERIFY_THREADS: '1',
    PMX_CLOB_DIRECT_PORT: String(port),
    PMX_OPERATOR_KEY: operatorKey,
    PMX_INGEST_HISTORY: 'false',
    PMX_CLICKHOUSE_PATH: dir.path,
  };
}

function start(name: 'clob' | 'ingest'): void {
  processes.start(name, `services/${name}/src/main.ts`, env());
}

function kill(name: 'clob' | 'ingest'): Promise<void> {
  return processes.kill(name);
}

function operator(method: string, path: string, body?: unknown): Promise<any> {
  return operatorCall(url, operatorKey, method, path, body);
}

/** Until the front end answers and every shard has recovered. */
async function ready(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const state = await operator('GET', '/operator/state').catch(() => undefined);
    if (state?.ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`front end not ready:\n${processes.tail()}`);
}

/** Until ingest has applied everything queued. */
async function drained(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    let left = 0;
    for (let shard = 0; shard < SHARDS; shard++) {
      const queue = new Queue(shardQueueName(shard), { connection: redis, prefix: prefix.slice(0, -1) });
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
      left += Object.values(counts).reduce((a, b) => a + b, 0);
      await queue.close();
    }
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('ingest did not drain the shard queues');
}

const acked = new Set<string>();
const trades = new Set<string>();
/** Signed bodies of acknowledged orders, to replay after the last restart. */
const replays: { trader: Trader; body: Record<string, unknown> }[] = [];

/** Random limit orders and cancels from every trader until `stop` resolves; failures while killed are expected. */
async function traffic(traders: Trader[], tokens: string[], stopAt: number): Promise<void> {
  await Promise.all(
    traders.map(async (trader) => {
      const mine: string[] = [];
      while (Date.now() < stopAt) {
        try {
          if (mine.length > 3 && randomInt(4) === 0) {
            const id = mine.splice(randomInt(mine.length), 1)[0]!;
            await trader.authed('DELETE', '/order', { orderID: id });
            continue;
          }
          const tokenId = tokens[randomInt(tokens.length)]!;
          const side = randomInt(2) === 0 ? 'BUY' : 'SELL';
          // Now and then an order signed long ago (outside the replay window: a ledger lookup) or
          // a minute ahead (a client clock running fast; further ahead is refused).
          const skew = [0, 0, 0, 0, 0, 0, -3_600_000, 60_000][randomInt(8)]!;
          const body = await trader.signOrder({
            tokenId,
            ...limit(side, `0.${45 + randomInt(11)}`, 5 + randomInt(10)),
            timestamp: Date.now() + skew,
          });
          const response = await trader.authed('POST', '/order', body);
          if (response.status === 200 && response.body.success) {
            acked.add(response.body.orderID);
            replays.push({ trader, body });
            for (const trade of response.body.tradeIDs) trades.add(trade);
            if (response.body.status === 'live') mine.push(response.body.orderID);
          }
        } catch {
          await new Promise((r) => setTimeout(r, 50)); // the front end is down: try again shortly
        }
      }
    }),
  );
}

async function snapshot(traders: Trader[], tokens: string[]) {
  const state = await operator('GET', '/operator/state');
  const books = await Promise.all(
    tokens.map(async (t) => {
      const book = (await (await fetch(`${url}/book?token_id=${t}`)).json()) as Record<string, unknown>;
      return { bids: book.bids, asks: book.asks, last: book.last_trade_price };
    }),
  );
  const balances = await Promise.all(traders.map((t) => operator('GET', `/operator/balances?address=${t.address}`)));
  return { shards: state.shards, invariants: state.invariants, books, balances };
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await createTempDir();
  start('ingest');
  start('clob');
  await ready();
}, 120_000);

afterAll(async () => {
  await kill('clob');
  await kill('ingest');
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await db?.drop();
  await dir?.remove();
});

describe('crash recovery', () => {
  it('keeps every acknowledged order and trade, and rebuilds books and balances, through SIGKILLs', async () => {
    const markets: { yes: string; no: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const yes = BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
      const no = BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
      await operator('POST', '/operator/markets', {
        condition_id: `0x${randomBytes(32).toString('hex')}`,
        question: `Crash ${i}?`,
        tokens: [
          { token_id: yes, outcome: 'Yes' },
          { token_id: no, outcome: 'No' },
        ],
      });
      markets.push({ yes, no });
    }
    const tokens = markets.flatMap((m) => [m.yes, m.no]);
    const traders: Trader[] = [];
    for (let i = 0; i < 4; i++) {
      const trader = new Trader(url);
      await trader.createApiKey();
      await operator('POST', '/operator/deposit', { address: trader.address, amount: String(100_000n * USDC) });
      for (const token of tokens)
        await operator('POST', '/operator/deposit', {
          address: trader.address,
          asset: token,
          amount: String(10_000n * USDC),
        });
      traders.push(trader);
    }

    for (let round = 0; round < 3; round++) {
      const stopAt = Date.now() + 2500;
      const flow = traffic(traders, tokens, stopAt);
      await new Promise((r) => setTimeout(r, 400 + randomInt(1200)));
      const killIngest = round !== 1;
      if (killIngest) await kill('ingest');
      await kill('clob');
      await flow;
      if (killIngest) start('ingest');
      start('clob');
      await ready();
    }
    await traffic(traders, tokens, Date.now() + 800);
    await drained();

    expect(acked.size).toBeGreaterThan(20);
    expect(trades.size).toBeGreaterThan(0);
    const ackedIds = [...acked];
    const [orders] = await db.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY(${ackedIds})`;
    expect(orders!.n).toBe(ackedIds.length);
    const [found] = await db.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM trades WHERE trade_id = ANY(${[...trades]})`;
    expect(found!.n).toBe(trades.size);
    expect(await checkLedger(db.sql)).toEqual([]);

    const before = await snapshot(traders, tokens);
    expect(before.invariants).toEqual([]);
    await kill('clob');
    start('clob');
    await ready();
    const after = await snapshot(traders, tokens);
    expect(after).toEqual(before);

    // Every acknowledged order stays used through restarts, inside the replay window (from memory,
    // reloaded from the ledger) and outside it (a ledger lookup).
    const stale = replays.filter(
      (r) => Math.abs(Number((r.body.order as { timestamp: string }).timestamp) - Date.now()) > 120_000,
    );
    expect(stale.length).toBeGreaterThan(0);
    for (const { trader, body } of [...stale, ...replays.slice(0, 40)]) {
      const response = await trader.authed('POST', '/order', body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/Duplicated/);
    }
  }, 240_000);
});

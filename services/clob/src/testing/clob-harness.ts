// Test-only: a real trading front end on an ephemeral port over its own Postgres database and
// Redis key prefix, with operator helpers and the consistency checks every scenario ends with.

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  cleanupRedisPrefix,
  createTestDatabase,
  testkitConfig,
  testRedisPrefix,
  Trader,
  type TestDatabase,
} from '@pmx/testkit';
import { createClobApp, type ClobApp } from '../app.ts';
import { loadClobConfig } from '../config.ts';
import { orderCost } from '@pmx/risk';
import { Side } from '@pmx/matching';

export interface Harness {
  /** The service's direct port (clients send SVC-X there); through the edge: @pmx/edge/testing. */
  url: string;
  /** The front end's own database, and the BullMQ prefix of its shard queues. */
  sql: TestDatabase['sql'];
  /** The same database's URL (another service's test instance may share it). */
  pgUrl: string;
  redisPrefix: string;
  app: ClobApp;
  operatorKey: string;
  operator(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  createMarket(
    fields?: Partial<{ condition_id: string; tick_size: string; min_order_size: string; neg_risk: boolean }>,
  ): Promise<{ conditionId: string; yes: string; no: string }>;
  deposit(address: string, amount: bigint, asset?: string): Promise<void>;
  /** Risk invariants hold and every open order is covered by its reservation and on the book. */
  expectConsistent(): void;
  /**
   * Stops the app and starts a new one on the same database and queues (url and app change).
   * `waitReady: false` returns once it listens, while its shards may still recover.
   */
  restart(options?: { waitReady?: boolean }): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

/** `onDatabase`: told the test database's name (the harness's own test checks it is dropped). */
export async function startClob(
  env: Record<string, string> = {},
  onDatabase?: (name: string) => void,
): Promise<Harness> {
  const db: TestDatabase = await createTestDatabase();
  onDatabase?.(db.name);
  const prefix = testRedisPrefix();
  const operatorKey = randomBytes(16).toString('hex');
  const config = () =>
    loadClobConfig({
      PMX_PG_URL: db.url,
      PMX_REDIS_URL: testkitConfig.redisUrl,
      PMX_REDIS_PREFIX: prefix.slice(0, -1),
      PMX_CLOB_DIRECT_PORT: '0',
      PMX_SHARDS: '2',
      PMX_VERIFY_THREADS: '1',
      PMX_OPERATOR_KEY: operatorKey,
      PMX_HISTORY: 'false',
      ...env,
    });
  const boot = async (waitReady = true) => {
    const app = await createClobApp(config());
    try {
      const listening = await app.listen();
      if (waitReady) await app.ready;
      return { app, url: `http://127.0.0.1:${listening.port}` };
    } catch (error) {
      await app.close().catch(() => {});
      throw error;
    }
  };
  /** The database and the Redis prefix go whatever else fails (a failed start leaves nothing). */
  const cleanup = async () => {
    const redis = new Redis(testkitConfig.redisUrl);
    try {
      await cleanupRedisPrefix(redis, prefix);
    } finally {
      redis.disconnect();
      await db.drop();
    }
  };
  let booted: Awaited<ReturnType<typeof boot>>;
  try {
    booted = await boot();
  } catch (error) {
    await cleanup();
    throw error;
  }

  const operator = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${harness.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };

  const harness: Harness = {
    ...booted,
    sql: db.sql,
    pgUrl: db.url,
    redisPrefix: prefix.slice(0, -1),
    operatorKey,
    operator,
    async createMarket(fields = {}) {
      const n = ++counter;
      const conditionId = fields.condition_id ?? `0x${randomBytes(32).toString('hex')}`;
      const yes = `${Date.now()}${n}1`;
      const no = `${Date.now()}${n}2`;
      const response = await operator('POST', '/operator/markets', {
        condition_id: conditionId,
        question: `Test market ${n}?`,
        tokens: [
          { token_id: yes, outcome: 'Yes' },
          { token_id: no, outcome: 'No' },
        ],
        tick_size: fields.tick_size ?? '0.01',
        min_order_size: fields.min_order_size ?? '5',
        neg_risk: fields.neg_risk ?? false,
      });
      if (response.status !== 201)
        throw new Error(`create market: ${response.status} ${JSON.stringify(response.body)}`);
      return { conditionId, yes, no };
    },
    async deposit(address, amount, asset = 'collateral') {
      const response = await operator('POST', '/operator/deposit', { address, asset, amount: String(amount) });
      if (response.status !== 200) throw new Error(`deposit: ${response.status} ${JSON.stringify(response.body)}`);
    },
    expectConsistent() {
      const { core } = harness.app;
      expect(core.risk.checkInvariants()).toEqual([]);
      const onBook = new Map<string, number>();
      const open = new Map<string, number>();
      for (const market of core.markets.list()) {
        const book = core.books.book(market, 0);
        const depth = [...book.bids, ...book.asks].reduce(
          (sum, level) => sum + Math.round(Number(level.size) * 1_000_000),
          0,
        );
        onBook.set(market.conditionId, depth);
        open.set(market.conditionId, 0);
      }
      for (const order of core.openOrders.all()) {
        const market = core.markets.get(order.market)!;
        const left = order.size - order.matched;
        const needed =
          order.side === Side.BUY
            ? orderCost({ side: Side.BUY, price: order.price, size: left, ticksPerUnit: market.ticksPerUnit })
            : left;
        expect(core.risk.reserved(order.orderId)).toBeGreaterThanOrEqual(needed);
        open.set(order.market, (open.get(order.market) ?? 0) + left);
      }
      expect(Object.fromEntries(open)).toEqual(Object.fromEntries(onBook));
      // Every reservation belongs to an open order: a cancel, refusal or expiry that forgot its
      // release would leave the owner's allowance short for good.
      const openIds = [...core.openOrders.all()]
        .filter((order) => order.size > order.matched)
        .map((order) => order.orderId);
      expect([...core.risk.reservationIds()].sort()).toEqual(openIds.sort());
    },
    async restart(options = {}) {
      await harness.app.close();
      Object.assign(harness, await boot(options.waitReady ?? true));
    },
    async close() {
      try {
        await harness.app.close();
      } finally {
        await cleanup();
      }
    },
  };
  return harness;
}

/** A 400 in the contract's simple error shape, with this message (or one matching it). */
export function expectRejected(response: { status: number; body: any }, message: string | RegExp): void {
  expect(response.status).toBe(400);
  expect(Object.keys(response.body)).toEqual(['error']);
  if (typeof message === 'string') expect(response.body.error).toBe(message);
  else expect(response.body.error).toMatch(message);
}

/** A file's shared clob: a market (minimum size 5) and a trader with an API key and 1000 USDC. */
export interface Scenario {
  h: Harness;
  market: { conditionId: string; yes: string; no: string };
  alice: Trader;
}

/**
 * Registers the hooks of a file whose tests share one clob (Scenario, filled before the first
 * test): after each test the exchange is consistent and still answers; closed after the last.
 */
export function sharedScenario(env: Record<string, string> = {}): Scenario {
  const scenario = {} as Scenario;
  beforeAll(async () => {
    scenario.h = await startClob(env);
    scenario.market = await scenario.h.createMarket({ min_order_size: '5' });
    scenario.alice = new Trader(scenario.h.url);
    await scenario.alice.createApiKey();
    await scenario.h.deposit(scenario.alice.address, 1000n * 1_000_000n);
  });
  afterAll(async () => {
    await scenario.h?.close();
  });
  afterEach(async () => {
    scenario.h.expectConsistent();
    expect((await fetch(`${scenario.h.url}/`)).status).toBe(200); // never crashed
  });
  return scenario;
}

// Test-only: a real catalog on an ephemeral port over its own migrated Postgres database, with
// helpers to call it, drive the operator API, seed order-book markets and wait for a change.

import { randomBytes } from 'node:crypto';
import { createTestDatabase, readReply, type Response as Reply, type TestDatabase } from '@pmx/testkit';
import { createCatalogApp, type CatalogApp } from '../app.ts';
import { loadCatalogConfig } from '../config.ts';

export type { Response as Reply } from '@pmx/testkit';

export interface CatalogHarness {
  url: string;
  db: TestDatabase;
  app: CatalogApp;
  operatorKey: string;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  send(method: string, path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<Reply>;
  operator(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Inserts an order-book market row (as the clob would) and returns its ids; `conditionId` and `tokens` may name one a clob trades. */
  orderBookMarket(fields?: {
    question?: string;
    tickSize?: string;
    outcomes?: [string, string];
    slug?: string;
    conditionId?: string;
    tokens?: [string, string];
  }): Promise<{ conditionId: string; tokens: [string, string] }>;
  close(): Promise<void>;
}

let tokenCounter = 0;

export async function startCatalog(
  env: Record<string, string> = {},
  prepare?: (db: TestDatabase) => Promise<void>,
): Promise<CatalogHarness> {
  const db = await createTestDatabase();
  const operatorKey = randomBytes(16).toString('hex');
  let app: Awaited<ReturnType<typeof createCatalogApp>> | undefined;
  let url: string;
  try {
    await prepare?.(db);
    const config = loadCatalogConfig({
      PMX_PG_URL: db.url,
      PMX_CATALOG_DIRECT_PORT: '0',
      PMX_OPERATOR_KEY: operatorKey,
      PMX_CATALOG_PRICE_REFRESH_MS: '0',
      PMX_CATALOG_POSITIONS_REFRESH_MS: '0',
      ...env,
    });
    app = await createCatalogApp(config);
    url = `http://127.0.0.1:${(await app.listen()).port}`;
  } catch (error) {
    // A failed start leaves no database behind.
    await app?.close().catch(() => {});
    await db.drop();
    throw error;
  }
  const started = app;

  const send = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    readReply(await fetch(`${url}${path}`, { method, body: init.body, headers: init.headers }));

  return {
    url,
    db,
    app: started,
    operatorKey,
    get: (path, headers) => send('GET', path, { headers }),
    send,
    operator: (method, path, body) =>
      send(method, path, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
      }),
    async orderBookMarket(fields = {}) {
      const n = ++tokenCounter;
      const conditionId = fields.conditionId ?? `0x${randomBytes(32).toString('hex')}`;
      const tokens: [string, string] = fields.tokens ?? [`${Date.now()}${n}1`, `${Date.now()}${n}2`];
      const [yes, no] = fields.outcomes ?? ['Yes', 'No'];
      await db.sql`
        INSERT INTO markets (condition_id, question, token0, token1, outcome0, outcome1, tick_size, min_order_size, market_slug)
        VALUES (${conditionId}, ${fields.question ?? `Order-book market ${n}?`}, ${tokens[0]}, ${tokens[1]}, ${yes}, ${no},
                ${fields.tickSize ?? '0.01'}, 5000000, ${fields.slug ?? `order-book-market-${n}-${conditionId.slice(2, 8)}`})`;
      return { conditionId, tokens };
    },
    async close() {
      try {
        await started.close();
      } finally {
        await db.drop();
      }
    },
  };
}

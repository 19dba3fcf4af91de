// The trading service in one process, gateway and core together (the simple start, `pnpm start`,
// and the tests' harness): the core (core/core-app.ts), a gateway (gateway/gateway-app.ts) linked
// to it in-process, and the operator API, all on one HTTP server. In a cluster the same two
// halves run as processes of their own (gateway-main.ts, core-main.ts; docs/design/cluster.md).

import { setTimeout as sleep } from 'node:timers/promises';
import { connectPostgres, type Sql } from '@pmx/db';
import { createHttpServer, type ListeningHttpServer } from '@pmx/http';
import { operatorAuth } from '@pmx/auth';
import type { ClobConfig } from './config.ts';
import { createCore, type OpeningTimings } from './core/core-app.ts';
import { createGateway } from './gateway/gateway-app.ts';
import { CoreView } from './gateway/core-view.ts';
import { LocalLink } from './link/local-link.ts';
import { OrderLatency } from './orders/order-latency.ts';
import { operatorRoutes } from './routes/operator.ts';
import { operatorLifecycleRoutes } from './routes/operator-lifecycle.ts';
import type { ShardSet } from './shards/shard-set.ts';
import type { TradingCore } from './trading-core.ts';

export interface ClobApp {
  core: TradingCore;
  shards: ShardSet;
  /** Resolves when every shard has recovered from the ledger and trading is open, with how long each step took. */
  ready: Promise<OpeningTimings>;
  /**
   * Resolves (never rejects) if trading halts: this process's state stopped following a shard
   * (TradingCore.halt). The process should then exit so a restart recovers from the ledger.
   */
  fatal: Promise<Error>;
  /** Listens on the direct port (127.0.0.1) and, when set, the Unix socket the edge reaches it on. */
  listen(): Promise<ListeningHttpServer>;
  close(): Promise<void>;
}

export async function createClobApp(config: ClobConfig, options: { sql?: Sql } = {}): Promise<ClobApp> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 8 });
  const latency = new OrderLatency();
  let core;
  try {
    core = await createCore(config, { sql, latency });
  } catch (error) {
    if (options.sql === undefined) await sql.end({ timeout: 2 });
    throw error;
  }
  const view = new CoreView(core.markets, true);
  const link = new LocalLink(core.service, view);
  const gateway = await createGateway(config, {
    sql,
    link,
    view,
    markets: core.markets,
    latency,
    proxies: core.operator.proxies,
  });
  const server = createHttpServer<any>({
    routes: [
      ...gateway.routes,
      ...operatorRoutes({ ...core.operator, books: core.core.books }, operatorAuth(config.operatorKey)),
      ...operatorLifecycleRoutes(core.lifecycle, core.core.books, operatorAuth(config.operatorKey)),
    ],
    errorShape: 'simple',
    maxBodyBytes: config.maxBodyBytes,
    corsOrigin: config.corsOrigin,
  });
  let served: ListeningHttpServer | undefined;

  return {
    core: core.core,
    shards: core.shards,
    ready: core.ready,
    fatal: core.fatal,
    async listen() {
      served = server.listen(config.directPort, config.listenHost, { unixPath: config.socketPath || undefined });
      return served;
    },
    async close() {
      // The ports stop accepting at once. Requests in flight get a second with the shards open
      // (orders being checked still reach them and get their acks); then the shards close: their
      // batches out get up to 2 s to be stored, then each command left is answered 503 (outcome
      // unknown for one cut off while out). The HTTP grace outlasts both, so those answers reach
      // their clients. (HTTP closing first would leave an order cut off with Redis hung without an
      // answer, though it could still be placed when Redis resumes.)
      const httpClosed = served?.close({ graceMs: 4000 }) ?? Promise.resolve();
      await Promise.race([httpClosed, sleep(1000, undefined, { ref: false })]);
      await core.close();
      await httpClosed;
      link.close();
      await gateway.close();
      if (options.sql === undefined) await sql.end({ timeout: 2 });
    },
  };
}

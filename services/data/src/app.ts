// Wires the account-data service: the projection (a snapshot, then following the ledger's
// notifications), the clob price feed, and the routes on the one HTTP layer with the simple error
// shape, the account reads behind the IP allowlist. It listens on its direct port and on the Unix
// socket the edge reaches it on (the one place X-Forwarded-For names the client).

import { connectPostgres, type Sql } from '@pmx/db';
import { createHttpServer, type ListeningHttpServer } from '@pmx/http';
import type { DataConfig } from './config.ts';
import { AccountProjection } from './projection/account-projection.ts';
import { PriceFeed } from './projection/price-feed.ts';
import { healthRoutes } from './routes/health.ts';
import { holderRoutes } from './routes/holders.ts';
import { positionRoutes } from './routes/positions.ts';

/** The routes' requests carry no body. */
const MAX_BODY_BYTES = 16 * 1024;

export interface DataApp {
  projection: AccountProjection;
  prices: PriceFeed;
  listen(): ListeningHttpServer;
  close(): Promise<void>;
}

export async function createDataApp(config: DataConfig, options: { sql?: Sql } = {}): Promise<DataApp> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 4 });
  const projection = new AccountProjection(sql, { responseCacheEntries: config.responseCacheEntries });
  try {
    await projection.start();
  } catch (error) {
    await projection.close().catch(() => {});
    if (options.sql === undefined) await sql.end({ timeout: 2 });
    throw error;
  }
  const prices = new PriceFeed(projection, { clobUrl: config.clobUrl, intervalMs: config.priceRefreshMs });
  prices.start();

  const guarded = { before: [config.allowlist.hook()] };
  const routes = [
    ...healthRoutes,
    ...[...positionRoutes(projection), ...holderRoutes(projection)].map((route) => ({ ...route, options: guarded })),
  ];
  const server = createHttpServer({
    routes,
    errorShape: 'simple',
    maxBodyBytes: MAX_BODY_BYTES,
    corsOrigin: config.corsOrigin,
  });
  let listening: ListeningHttpServer | undefined;

  return {
    projection,
    prices,
    listen() {
      listening = server.listen(config.directPort, config.listenHost, { unixPath: config.socketPath || undefined });
      return listening;
    },
    async close() {
      await listening?.close({ graceMs: 1000 });
      await prices.stop();
      await projection.close();
      if (options.sql === undefined) await sql.end({ timeout: 2 });
    },
  };
}

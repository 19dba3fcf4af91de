// Wires the catalog: the projection (loaded, then following NOTIFY), the price and positions
// feeds, every route module on the one HTTP layer with the typed error shape (the contract's
// catalog rate limits are the edge's: docs/design/edge.md).

import { connectPostgres, type Sql } from '@pmx/db';
import { createHttpServer, type ListeningHttpServer } from '@pmx/http';
import { ApiKeyStore, apiKeyAuth, operatorAuth } from '@pmx/auth';
import type { CatalogConfig } from './config.ts';
import { CatalogProjection } from './projection/catalog-projection.ts';
import { PositionsFeed } from './projection/positions-feed.ts';
import { PriceFeed } from './projection/price-feed.ts';
import { commentRoutes } from './routes/comments.ts';
import { eventRoutes } from './routes/events.ts';
import { healthRoutes } from './routes/health.ts';
import { marketRoutes } from './routes/markets.ts';
import { operatorRoutes } from './routes/operator.ts';
import { profileRoutes } from './routes/profiles.ts';
import { searchRoutes } from './routes/search.ts';
import { seriesRoutes } from './routes/series.ts';
import { tagRoutes } from './routes/tags.ts';

export interface CatalogApp {
  projection: CatalogProjection;
  prices: PriceFeed;
  positions: PositionsFeed;
  /** Listens on the direct port (127.0.0.1) and, when set, the Unix socket the edge reaches it on. */
  listen(): Promise<ListeningHttpServer>;
  close(): Promise<void>;
}

export async function createCatalogApp(config: CatalogConfig, options: { sql?: Sql } = {}): Promise<CatalogApp> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 8 });
  const projection = new CatalogProjection(sql, { responseCacheEntries: config.responseCacheEntries });
  await projection.start();
  const prices = new PriceFeed(projection, { clobUrl: config.clobUrl, intervalMs: config.priceRefreshMs });
  const positions = new PositionsFeed(sql, projection, { intervalMs: config.positionsRefreshMs });
  prices.start();
  positions.start();

  const routes = [
    ...healthRoutes(projection),
    ...marketRoutes(projection),
    ...eventRoutes(projection),
    ...seriesRoutes(projection),
    ...tagRoutes(projection),
    ...profileRoutes(projection),
    ...searchRoutes(projection),
    ...commentRoutes(
      { sql, projection },
      apiKeyAuth(new ApiKeyStore(sql, { cache: false }), { windowSeconds: config.authWindowSeconds }),
    ),
    ...operatorRoutes({ sql, projection }, operatorAuth(config.operatorKey)),
  ];
  const server = createHttpServer<any>({
    routes,
    errorShape: 'typed',
    maxBodyBytes: config.maxBodyBytes,
    corsOrigin: config.corsOrigin,
  });
  let served: ListeningHttpServer | undefined;

  return {
    projection,
    prices,
    positions,
    async listen() {
      served = server.listen(config.directPort, config.listenHost, { unixPath: config.socketPath || undefined });
      return served;
    },
    async close() {
      await served?.close({ graceMs: 1000 });
      await Promise.all([prices.stop(), positions.stop()]);
      await projection.close();
      if (options.sql === undefined) await sql.end({ timeout: 2 });
    },
  };
}

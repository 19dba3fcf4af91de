// A gateway as a process of its own (gateway-main.ts; docs/design/cluster.md): the markets read
// from Postgres, the core's view over the WebSocket link, and the gateway's routes on its direct
// port and the edge's Unix socket. Stateless: any number of them, on any machine.

import { connectPostgres, type Sql } from '@pmx/db';
import { createHttpServer, type ListeningHttpServer } from '@pmx/http';
import type { ClobConfig } from '../config.ts';
import { MarketRegistry } from '../markets/market-registry.ts';
import { OrderLatency } from '../orders/order-latency.ts';
import { CoreClient } from './core-client.ts';
import { CoreView } from './core-view.ts';
import { createGateway } from './gateway-app.ts';

export interface GatewayProcess {
  client: CoreClient;
  view: CoreView;
  listening: ListeningHttpServer;
  close(): Promise<void>;
}

export async function startGatewayProcess(config: ClobConfig, options: { sql?: Sql } = {}): Promise<GatewayProcess> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 8 });
  const markets = new MarketRegistry(sql);
  await markets.load();
  const view = new CoreView(markets);
  const client = new CoreClient({ urls: config.coreUrls, view, waitMs: config.coreWaitMs });
  const gateway = await createGateway(config, { sql, link: client, view, markets, latency: new OrderLatency() });
  const server = createHttpServer<any>({
    routes: gateway.routes,
    errorShape: 'simple',
    maxBodyBytes: config.maxBodyBytes,
    corsOrigin: config.corsOrigin,
  });
  const listening = server.listen(config.directPort, config.listenHost, {
    unixPath: config.socketPath || undefined,
  });
  return {
    client,
    view,
    listening,
    async close() {
      // Requests in flight get their core's answers; the link goes once they are out.
      await listening.close({ graceMs: 3000 });
      await client.close();
      await gateway.close();
      if (options.sql === undefined) await sql.end({ timeout: 2 });
    },
  };
}

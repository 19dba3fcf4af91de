// Wires a gateway (docs/design/cluster.md): uWS routes with level-1/level-2 auth, order parsing
// and verification in its own verify pool, market data from the core's book read model
// (CoreView), ledger reads from Postgres and history from ClickHouse. Everything that needs
// balances or open orders goes to the core over a CoreLink.

import { openClickHouse } from '@pmx/clickhouse';
import type { Sql } from '@pmx/db';
import { HistoryFollower } from '@pmx/ledger';
import { createVerifyPool, SignatureCheck } from '@pmx/signing';
import { ApiKeyStore, apiKeyAuth, walletAuth } from '@pmx/auth';
import type { Route } from '@pmx/http';
import { logger } from '@pmx/config';
import { CatalogLinks } from '@pmx/market-meta';
import type { ClobConfig } from '../config.ts';
import type { MarketRegistry } from '../markets/market-registry.ts';
import { ProxyWallets } from '../markets/proxy-wallets.ts';
import { ledgerOrder } from '../orders/ledger-order.ts';
import type { OrderLatency } from '../orders/order-latency.ts';
import { authRoutes } from '../routes/auth.ts';
import { balanceRoutes } from '../routes/balances.ts';
import { custodyRoutes } from '../routes/custody.ts';
import { clientCompatRoutes } from '../routes/client-compat.ts';
import { healthRoutes } from '../routes/health.ts';
import { heartbeatRoutes } from '../routes/heartbeats.ts';
import { marketDataRoutes } from '../routes/market-data.ts';
import { marketRoutes } from '../routes/markets.ts';
import { orderRoutes } from '../routes/orders.ts';
import { tradeRoutes } from '../routes/trades.ts';
import type { CoreLink } from '../link/core-protocol.ts';
import type { CoreView } from './core-view.ts';
import { GatewayOrders } from './gateway-orders.ts';
import { MatchedTrades } from './matched-trades.ts';

export interface Gateway {
  orders: GatewayOrders;
  matched: MatchedTrades;
  routes: Route<any>[];
  close(): Promise<void>;
}

export interface GatewayDeps {
  sql: Sql;
  link: CoreLink;
  view: CoreView;
  markets: MarketRegistry;
  latency: OrderLatency;
  /** The core's proxy wallets when it runs in this process (one copy); else loaded here. */
  proxies?: ProxyWallets;
}

export async function createGateway(config: ClobConfig, deps: GatewayDeps): Promise<Gateway> {
  const { sql, view, markets } = deps;
  const pool = createVerifyPool({ threads: config.verifyThreads });
  const keys = new ApiKeyStore(sql);
  let proxies = deps.proxies ?? new ProxyWallets(sql);
  const ownProxies = deps.proxies === undefined;
  // What the listing shows of a market's catalog entry (event, tags, images), followed on pmx_catalog.
  const links = new CatalogLinks(sql);
  await Promise.all([keys.load(), ownProxies ? proxies.load() : undefined, links.start()]);
  const matched = new MatchedTrades(markets);
  view.on((publication) => {
    if (publication.type === 'books' && publication.trades.length > 0) matched.add(publication.trades);
    if (publication.type === 'keyDeleted') keys.forget(publication.apiKey);
    if (publication.type === 'proxiesChanged' && ownProxies) {
      const fresh = new ProxyWallets(sql);
      fresh.load().then(
        () => (proxies = fresh),
        (error: unknown) => logger('clob.gateway').error({ err: error }, 'reading the proxy wallets again failed'),
      );
    }
  });
  const ch = config.history ? openClickHouse({ url: config.clickhouseUrl, path: config.clickhousePath }) : undefined;
  const follower =
    ch === undefined || !config.historyCopy
      ? undefined
      : new HistoryFollower({ sql, ch, log: (line) => logger('clob.history').warn(line) });
  await follower?.start();
  // Ingest's notice of each batch it committed: "shard:seq".
  await sql.listen('pmx_ledger', (payload) => {
    const [shard, seq] = payload.split(':').map(Number);
    if (!Number.isSafeInteger(shard) || !Number.isSafeInteger(seq)) return;
    matched.confirm(shard!, seq!);
    follower?.notify(shard!, seq!, 1);
  });

  const orders = new GatewayOrders(deps.link, view, {
    signatures: new SignatureCheck(pool, config.chainId),
    proxies: () => proxies,
    exchangeAddress: config.exchangeAddress,
    negRiskExchangeAddress: config.negRiskExchangeAddress,
    replayWindowMs: config.replayWindowSeconds * 1000,
    latency: deps.latency,
  });
  const authOptions = { chainId: config.chainId, windowSeconds: config.authWindowSeconds };
  const wallet = walletAuth(authOptions);
  const apiKey = apiKeyAuth(keys, authOptions);
  /** 425 while any shard recovers (a key's orders and balances are not all rebuilt yet), 503 once halted. */
  const whole = () => view.assertAllReady();
  const holderBalances = {
    balanceOf: (address: string, asset: string) => orders.balance(address, asset),
    markets,
    exchanges: [config.exchangeAddress, config.negRiskExchangeAddress],
    proxyOf: (signer: string, type: 1 | 2) => proxies.ofType(signer, type),
  };
  const routes: Route<any>[] = [
    ...healthRoutes(),
    ...authRoutes(keys, wallet, apiKey, {
      // Its orders must be cancellable now: while shards recover, some are not known yet.
      before: whole,
      clear: (key) => orders.closeKey(key),
      failed: (key) => orders.reopenKey(key).catch(() => {}),
      after: (key) => orders.keyDeleted(key).catch(() => {}),
    }),
    ...orderRoutes(orders, markets, [apiKey], whole, (id, ownerKey) => ledgerOrder(sql, id, ownerKey)),
    ...heartbeatRoutes(orders, [apiKey]),
    ...tradeRoutes(sql, ch, apiKey, (signer) => proxies.spansOf(signer), matched),
    ...balanceRoutes(holderBalances, [apiKey, whole]),
    ...custodyRoutes((op, address, market, amount) => orders.custody(op, address, market, amount), holderBalances, [
      apiKey,
    ]),
    ...marketDataRoutes(markets, view.books, (market) => view.assertReady(market)),
    ...marketRoutes(
      markets,
      view.books,
      (market) => view.assertReady(market),
      (id) => links.get(id),
    ),
    ...clientCompatRoutes(markets),
  ];
  return {
    orders,
    matched,
    routes,
    async close() {
      await follower?.close();
      await links.close();
      await ch?.close();
      await pool.destroy();
    },
  };
}

// Wires the trading front end: Postgres-backed registries, shard threads, the verify pool, the
// trading core and every route module on the one HTTP layer (the contract's rate limits are the
// edge's: docs/design/edge.md).

import { setTimeout as sleep } from 'node:timers/promises';
import { openClickHouse } from '@pmx/clickhouse';
import { connectPostgres, type Sql } from '@pmx/db';
import { HistoryFollower } from '@pmx/ledger';
import { createHttpServer, HttpError, type ListeningHttpServer } from '@pmx/http';
import { createVerifyPool, SignatureCheck, type VerifyPool } from '@pmx/signing';
import { ApiKeyStore } from '@pmx/auth';
import { apiKeyAuth, operatorAuth, walletAuth } from '@pmx/auth';
import type { ClobConfig } from './config.ts';
import { MarketRegistry, type MarketRecord } from './markets/market-registry.ts';
import { ProxyWallets } from './markets/proxy-wallets.ts';
import { OrderService } from './orders/order-service.ts';
import { KnownOrders } from './orders/known-orders.ts';
import { GtdExpiry } from './orders/gtd-expiry.ts';
import { ledgerOrder } from './orders/ledger-order.ts';
import { Funding } from './risk/funding.ts';
import { authRoutes } from './routes/auth.ts';
import { balanceRoutes } from './routes/balances.ts';
import { clientCompatRoutes } from './routes/client-compat.ts';
import { healthRoutes } from './routes/health.ts';
import { heartbeatRoutes } from './routes/heartbeats.ts';
import { Heartbeats } from './orders/heartbeats.ts';
import { HeartbeatStore } from './orders/heartbeat-store.ts';
import { marketDataRoutes } from './routes/market-data.ts';
import { marketRoutes } from './routes/markets.ts';
import { CatalogLinks } from '@pmx/market-meta';
import { operatorRoutes } from './routes/operator.ts';
import { operatorLifecycleRoutes } from './routes/operator-lifecycle.ts';
import { custodyRoutes } from './routes/custody.ts';
import { Custody } from './risk/custody.ts';
import { MarketLifecycle } from './markets/market-lifecycle.ts';
import { orderRoutes } from './routes/orders.ts';
import { tradeRoutes } from './routes/trades.ts';
import { ShardOwnership } from './shards/shard-ownership.ts';
import { ShardSet } from './shards/shard-set.ts';
import { seedDemo } from './demo.ts';
import { recoverShards } from './recovery/shard-recovery.ts';
import { TradingCore, shardMarket } from './trading-core.ts';
import { shardFailure } from './markets/market-lifecycle.ts';
import { logger } from '@pmx/config';

export interface ClobApp {
  core: TradingCore;
  shards: ShardSet;
  /** Resolves when every shard has recovered from the ledger and trading is open. */
  ready: Promise<void>;
  /**
   * Resolves (never rejects) if trading halts: this process's state stopped following a shard
   * (TradingCore.halt). The process should then exit so a restart recovers from the ledger.
   */
  fatal: Promise<Error>;
  /** Listens on the direct port (127.0.0.1) and, when set, the Unix socket the edge reaches it on. */
  listen(): Promise<ListeningHttpServer>;
  close(): Promise<void>;
}

const HEARTBEAT_SWEEP_MS = 1000;
const log = logger('clob');

export async function createClobApp(config: ClobConfig, options: { sql?: Sql } = {}): Promise<ClobApp> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 8 });
  const markets = new MarketRegistry(sql);
  const core = new TradingCore(markets);
  let fatal!: (error: Error) => void;
  const halted = new Promise<Error>((resolve) => (fatal = resolve));
  // Before anything runs: a second front end on this ledger would run its own copy of the books.
  let ownership: ShardOwnership;
  try {
    ownership = await ShardOwnership.claim(sql, config.shards, (error) => {
      log.fatal(`${error.message}; trading halts (503)`);
      core.halt(error.message);
      fatal(error);
    });
  } catch (error) {
    if (options.sql === undefined) await sql.end({ timeout: 2 });
    throw error;
  }
  const shards = new ShardSet({
    shards: config.shards,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    stallMs: config.shardStallMs,
    onReply: (_shard, reply) => core.applyReply(reply),
    onFault: (shard, error) => {
      log.fatal(
        { err: error },
        `shard ${shard}: this process's balances and books no longer follow the shard; trading halts (503) until a restart recovers from the ledger`,
      );
      core.halt(`shard ${shard}: ${error.message}`);
      fatal(error);
    },
  });
  const pool: VerifyPool = createVerifyPool({ threads: config.verifyThreads });
  const keys = new ApiKeyStore(sql);
  const proxies = new ProxyWallets(sql);
  const funding = new Funding(sql, core.risk);
  core.useShards((market) => shards.shardOf(market));
  // Each GTD is expired at its time (the shards also expire due orders before any command).
  const gtd = new GtdExpiry(
    core.openOrders,
    (market) => void shards.submit(shards.shardOf(market), { type: 'expire' }).catch(() => {}),
  );
  core.openOrders.onGtd((orderId, expiresAt) => gtd.track(orderId, expiresAt));

  const openMarket = async (market: MarketRecord) => {
    const opened = await shards.submit(shards.shardOf(market.conditionId), {
      type: 'market',
      market: shardMarket(market),
    });
    if (opened.type !== 'market')
      throw new HttpError(503, `the market's shard could not open it: ${shardFailure(opened)}`);
    core.addMarket(market);
  };
  for (const market of await markets.load()) await openMarket(market);
  // What the listing shows of a market's catalog entry (event, tags, images), followed on pmx_catalog.
  const links = new CatalogLinks(sql);
  await Promise.all([keys.load(), proxies.load(), links.start()]);
  const ch = config.history ? openClickHouse({ url: config.clickhouseUrl, path: config.clickhousePath }) : undefined;
  const follower =
    ch === undefined ? undefined : new HistoryFollower({ sql, ch, log: (line) => logger('clob.history').warn(line) });
  if (follower !== undefined) {
    await follower.start();
    await sql.listen('pmx_ledger', (payload) => {
      const [shard, seq] = payload.split(':').map(Number);
      if (Number.isSafeInteger(shard) && Number.isSafeInteger(seq)) follower.notify(shard!, seq!, 1);
    });
  }
  const known = new KnownOrders(sql, { windowMs: config.replayWindowSeconds * 1000 });
  // Closing stops a recovery still waiting (for ingest, for Redis) rather than wait for it.
  const closing = new AbortController();
  const ready = recoverShards({
    sql,
    shards,
    core,
    known,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    signal: closing.signal,
  }).then(async () => {
    if (config.demoMarkets) await seedDemo({ markets, funding, risk: core.risk, openMarket }, config.demoFund);
  });
  ready.catch(() => {});

  const authOptions = { chainId: config.chainId, windowSeconds: config.authWindowSeconds };
  const wallet = walletAuth(authOptions);
  const apiKey = apiKeyAuth(keys, authOptions);
  const orders = new OrderService(core, shards, new SignatureCheck(pool, config.chainId), proxies, known, {
    exchangeAddress: config.exchangeAddress,
    negRiskExchangeAddress: config.negRiskExchangeAddress,
    keyDeleted: (apiKey) => keys.isDeleted(apiKey),
  });
  const heartbeatStore = new HeartbeatStore(sql);
  const heartbeats = new Heartbeats(config.heartbeatTimeoutMs, undefined, heartbeatStore);
  heartbeats.restore(await heartbeatStore.load());
  /** Cancels every open order of an API key (deleted, or silent past its heartbeat), logged. */
  const cancelKeyOrders = async (key: string, why: string): Promise<void> => {
    const result = await orders.cancelAll({ apiKey: key });
    const left = Object.keys(result.not_canceled).length;
    log.info(`API key ${key} ${why}: ${result.canceled.length} open orders cancelled`);
    if (left > 0)
      log.warn(
        `API key ${key} ${why}: ${left} of its orders could not be cancelled (already closed, or trading halted): ${JSON.stringify(result.not_canceled)}`,
      );
  };
  /** 425 while any shard recovers (a key's orders and balances are not all rebuilt yet), 503 once halted. */
  const whole = () => core.assertAllReady(shards.count);
  const holderBalances = {
    risk: core.risk,
    markets,
    exchanges: [config.exchangeAddress, config.negRiskExchangeAddress],
    proxyOf: (signer: string, type: 1 | 2) => proxies.ofType(signer, type),
  };
  const routes = [
    ...healthRoutes(),
    ...authRoutes(keys, wallet, apiKey, {
      // Its orders must be cancellable now: while shards recover, some are not known yet.
      before: whole,
      clear: async (key) => {
        await cancelKeyOrders(key, 'being deleted');
        const left = core.openOrders.ofOwner(key).length + core.openOrders.intentsOf(key).length;
        if (left > 0)
          throw new HttpError(
            503,
            `${left} of the API key's open orders could not be cancelled (see DELETE /cancel-all); the key was not deleted and still works: retry shortly`,
          );
      },
      after: (key) => heartbeats.disarm(key),
    }),
    ...orderRoutes(orders, core.openOrders, markets, [apiKey], whole, (id, ownerKey) => ledgerOrder(sql, id, ownerKey)),
    ...heartbeatRoutes(heartbeats, [apiKey]),
    ...tradeRoutes(sql, ch, apiKey, (signer) => proxies.spansOf(signer)),
    ...balanceRoutes(holderBalances, [apiKey, whole]),
    ...custodyRoutes(new Custody(core, shards), holderBalances, [apiKey]),
    ...marketDataRoutes(markets, core.books, (market) => core.assertReady(market)),
    ...marketRoutes(
      markets,
      core.books,
      (market) => core.assertReady(market),
      (id) => links.get(id),
    ),
    ...clientCompatRoutes(markets),
    ...operatorRoutes(
      {
        markets,
        books: core.books,
        risk: core.risk,
        funding,
        proxies,
        openMarket,
        ready: () => core.allReady(shards.count),
        assertReady: whole,
        shardStatus: () => shards.broadcast({ type: 'status' }),
        latency: orders.latency,
        cancelMakerOrders: (maker) => orders.cancelMaker(maker),
      },
      operatorAuth(config.operatorKey),
    ),
    ...operatorLifecycleRoutes(new MarketLifecycle(core, shards), core.books, operatorAuth(config.operatorKey)),
  ];
  const server = createHttpServer<any>({
    routes,
    errorShape: 'simple',
    maxBodyBytes: config.maxBodyBytes,
    corsOrigin: config.corsOrigin,
  });
  const sweep = setInterval(() => {
    // While shards recover, a key's orders are not all known yet and cancels would be refused:
    // a switch that expires then stays armed and fires once trading opens.
    if (!core.allReady(shards.count)) return;
    for (const { apiKey: key } of heartbeats.takeExpired()) {
      cancelKeyOrders(key, 'missed its heartbeat').catch((error: unknown) =>
        log.error({ err: error }, `cancelling the orders of API key ${key} after a missed heartbeat failed`),
      );
    }
  }, HEARTBEAT_SWEEP_MS);
  sweep.unref();
  let served: ListeningHttpServer | undefined;

  return {
    core,
    shards,
    ready,
    fatal: halted,
    async listen() {
      served = server.listen(config.directPort, '127.0.0.1', { unixPath: config.socketPath || undefined });
      return served;
    },
    async close() {
      clearInterval(sweep);
      gtd.close();
      // Stopped while recovering: what the shards hold is rebuilt from the ledger at the next
      // start anyway, so they get no grace (their recovery may wait on ingest).
      const recovering = !core.allReady(shards.count);
      closing.abort();
      await ready.catch(() => {});
      // The ports stop accepting at once. Requests in flight get a second with the shards open
      // (orders being checked still reach them and get their acks); then the shards close: their
      // batches out get up to 2 s to be stored, then each command left is answered 503 (outcome
      // unknown for one cut off while out). The HTTP grace outlasts both, so those answers reach
      // their clients. (HTTP closing first would leave an order cut off with Redis hung without an
      // answer, though it could still be placed when Redis resumes.)
      const httpClosed = served?.close({ graceMs: 4000 }) ?? Promise.resolve();
      await Promise.race([httpClosed, sleep(1000, undefined, { ref: false })]);
      await shards.close({ graceMs: recovering ? 0 : 2000 });
      await httpClosed;
      funding.close(); // a transfer still waiting for Postgres to settle its outcome gives up
      await follower?.close();
      await links.close();
      await ch?.close();
      await pool.destroy();
      await ownership.release();
      if (options.sql === undefined) await sql.end({ timeout: 2 });
    },
  };
}

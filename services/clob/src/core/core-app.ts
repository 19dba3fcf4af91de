// Wires the core (docs/design/cluster.md): shard ownership (Postgres advisory locks), the shard
// threads, the trading core (risk, open orders, book read model), recovery from the ledger, GTD
// expiry, heartbeats, funding and proxy wallets, and the CoreService gateways talk to. No HTTP
// here: core/core-server.ts serves it in a process of its own, app.ts beside a gateway.

import { connectPostgres, type Sql } from '@pmx/db';
import { logger } from '@pmx/config';
import type { ClobConfig } from '../config.ts';
import { MarketRegistry, type MarketRecord } from '../markets/market-registry.ts';
import { ProxyWallets } from '../markets/proxy-wallets.ts';
import { KnownOrders } from '../orders/known-orders.ts';
import { GtdExpiry } from '../orders/gtd-expiry.ts';
import { Heartbeats } from '../orders/heartbeats.ts';
import { HeartbeatStore } from '../orders/heartbeat-store.ts';
import { OrderLatency } from '../orders/order-latency.ts';
import { Funding } from '../risk/funding.ts';
import { ShardOwnership } from '../shards/shard-ownership.ts';
import { ShardSet } from '../shards/shard-set.ts';
import { seedDemo } from '../demo.ts';
import { recoverShards, type RecoveryTimings } from '../recovery/shard-recovery.ts';
import { TradingCore, shardMarket } from '../trading-core.ts';
import { CoreService } from './core-service.ts';
import { Custody } from '../risk/custody.ts';
import { MarketLifecycle, shardFailure } from '../markets/market-lifecycle.ts';
import { HttpError } from '@pmx/http';
import { waitForShardLocks } from './standby.ts';
import type { OperatorDeps } from '../routes/operator.ts';

const HEARTBEAT_SWEEP_MS = 1000;
const log = logger('clob.core');

export interface Core {
  core: TradingCore;
  shards: ShardSet;
  service: CoreService;
  markets: MarketRegistry;
  /** Resolves once this core owns the shards (at once, or when the active core it stands by for dies). */
  active: Promise<void>;
  /** Resolves when every shard has recovered from the ledger and trading is open, with how long each step took. */
  ready: Promise<OpeningTimings>;
  /** Resolves (never rejects) if trading halts (TradingCore.halt): the process should exit and restart. */
  fatal: Promise<Error>;
  /** What the operator API needs of the core. */
  operator: Omit<OperatorDeps, 'books'>;
  /** The operator's lifecycle steps (pause, resume, close, resolve). */
  lifecycle: MarketLifecycle;
  close(): Promise<void>;
}

/** How long opening took, ms: markets, proxies and switches loaded, then recovery's steps. */
export interface OpeningTimings extends RecoveryTimings {
  loadMs: number;
}

export interface CoreOptions {
  sql?: Sql;
  /** Wait for the shard locks (a standby) instead of refusing to start while another core has them. */
  standby?: boolean;
  /** Where placed orders spend their time (shared with a gateway in one process). */
  latency?: OrderLatency;
}

export async function createCore(config: ClobConfig, options: CoreOptions = {}): Promise<Core> {
  const sql = options.sql ?? connectPostgres(config.pgUrl, { max: 8 });
  const ownSql = options.sql === undefined;
  const markets = new MarketRegistry(sql);
  const core = new TradingCore(markets);
  let fatal!: (error: Error) => void;
  const halted = new Promise<Error>((resolve) => (fatal = resolve));
  const halt = (error: Error, reason = error.message) => {
    core.halt(reason);
    service.publishStatus();
    fatal(error);
  };
  // Before anything runs: a second core on this ledger would run its own copy of the books.
  const closing = new AbortController();
  const onLost = (error: Error) => {
    log.fatal(`${error.message}; trading halts (503)`);
    halt(error);
  };
  let ownership: ShardOwnership | undefined;
  if (options.standby !== true) {
    try {
      ownership = await ShardOwnership.claim(sql, config.shards, onLost);
    } catch (error) {
      if (ownSql) await sql.end({ timeout: 2 });
      throw error;
    }
  }
  // The threads start now, so a standby takes over with them warm.
  const shards = new ShardSet({
    shards: config.shards,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    stallMs: config.shardStallMs,
    onReply: (shard, reply) => {
      core.applyReply(reply);
      service.publishReply(shard, reply);
    },
    onFault: (shard, error) => {
      log.fatal(
        { err: error },
        `shard ${shard}: this process's balances and books no longer follow the shard; trading halts (503) until a restart recovers from the ledger`,
      );
      halt(error, `shard ${shard}: ${error.message}`);
    },
  });
  const proxies = new ProxyWallets(sql);
  const funding = new Funding(sql, core.risk);
  const known = new KnownOrders(sql, { windowMs: config.replayWindowSeconds * 1000 });
  const heartbeatStore = new HeartbeatStore(sql);
  const heartbeats = new Heartbeats(config.heartbeatTimeoutMs, undefined, heartbeatStore);
  const latency = options.latency ?? new OrderLatency();
  const custody = new Custody(core, shards);
  const service = new CoreService({ core, shards, known, proxies, heartbeats, latency, markets, custody });
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
    service.publishMarket(market);
  };
  // Every stored market not opened yet (the risk book has each opened one), all at once: each shard
  // thread takes a turn's markets as one batch. Markets change only by lifecycle steps, which
  // recovery applies from the ledger.
  const openStored = async () => {
    const unopened = (await markets.load()).filter((market) => core.risk.market(market.conditionId) === undefined);
    await Promise.all(unopened.map(openMarket));
  };

  const active = (async () => {
    if (ownership === undefined) {
      // A standby opens the markets while it waits, so a takeover opens only those made since
      // (and any this could not open now, Postgres away: they are tried again then).
      await openStored().catch(() => {});
      ownership = await waitForShardLocks(sql, config.shards, onLost, closing.signal);
      log.info(`took the shard locks: this core is active now (${config.shards} shards)`);
    }
  })();
  const ready = active.then(async () => {
    const started = performance.now();
    // Switches first: a heartbeat that reaches this core while it opens finds its switch armed.
    heartbeats.restore(await heartbeatStore.load());
    await openStored();
    await proxies.load();
    const loadMs = performance.now() - started;
    const took = await recoverShards({
      sql,
      shards,
      core,
      known,
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      signal: closing.signal,
      onShardReady: () => service.publishStatus(),
    });
    const ms = (value: number) => Math.round(value);
    log.info(
      { ...took, loadMs },
      `trading open ${ms(performance.now() - started)} ms after taking the shard locks (markets, proxies and switches ${ms(loadMs)} ms; ingest's drain ${ms(took.drainMs)} ms, the ledger read ${ms(took.readMs)} ms, the rebuild of ${took.openOrders} open orders ${ms(took.rebuildMs)} ms)`,
    );
    if (config.demoMarkets) await seedDemo({ markets, funding, risk: core.risk, openMarket }, config.demoFund);
    return { ...took, loadMs };
  });
  ready.catch(() => {});

  const sweep = setInterval(() => {
    // While shards recover, a key's orders are not all known yet and cancels would be refused:
    // a switch that expires then stays armed and fires once trading opens.
    if (!core.allReady(shards.count)) return;
    for (const { apiKey } of heartbeats.takeExpired()) {
      service
        .cancelKeyOrders(apiKey, 'missed its heartbeat')
        .catch((error: unknown) =>
          log.error({ err: error }, `cancelling the orders of API key ${apiKey} after a missed heartbeat failed`),
        );
    }
  }, HEARTBEAT_SWEEP_MS);
  sweep.unref();

  return {
    core,
    shards,
    service,
    markets,
    active,
    ready,
    fatal: halted,
    lifecycle: new MarketLifecycle(core, shards),
    operator: {
      markets,
      risk: core.risk,
      funding,
      proxies,
      openMarket,
      ready: () => core.allReady(shards.count),
      assertReady: () => core.assertAllReady(shards.count),
      shardStatus: () => shards.broadcast({ type: 'status' }),
      latency,
      cancelMakerOrders: (maker) => service.cancelMaker(maker),
      proxiesChanged: () => service.publish({ type: 'proxiesChanged' }),
    },
    async close() {
      clearInterval(sweep);
      gtd.close();
      // Stopped while recovering: what the shards hold is rebuilt from the ledger at the next
      // start anyway, so they get no grace (their recovery may wait on ingest).
      const recovering = !core.allReady(shards.count);
      closing.abort();
      await ready.catch(() => {});
      await shards.close({ graceMs: recovering ? 0 : 2000 });
      funding.close(); // a transfer still waiting for Postgres to settle its outcome gives up
      await ownership?.release();
      if (ownSql) await sql.end({ timeout: 2 });
    },
  };
}

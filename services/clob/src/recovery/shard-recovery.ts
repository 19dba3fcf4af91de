// Start-up recovery (docs/design/durability.md): ingest first applies everything in every shard's
// queue to Postgres; then, from one consistent read of the ledger, the risk book (balances, locked
// collateral, reservations of open orders), the open orders and each shard's books are rebuilt,
// and event numbering goes on from the ledger's last sequence. Until then the shard answers 425.

import { setMaxListeners } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { shardQueueName } from '@pmx/events';
import { reportConnectionErrors, logger } from '@pmx/config';
import type { Sql } from '@pmx/db';
import { Side } from '@pmx/matching';
import type { KnownOrders } from '../orders/known-orders.ts';
import type { ShardSet } from '../shards/shard-set.ts';
import { COLLATERAL, type TradingCore } from '../trading-core.ts';
import { readLedgerState } from './ledger-state.ts';
import { applyState } from '../markets/market-registry.ts';

export interface RecoveryOptions {
  sql: Sql;
  shards: ShardSet;
  core: TradingCore;
  /** Seeded with the ids of orders signed within its replay window. */
  known: KnownOrders;
  redisUrl: string;
  redisPrefix: string;
  log?: (line: string) => void;
  pollMs?: number;
  /** Aborted when the service closes: recovery then stops waiting (for ingest, for Redis) at once. */
  signal?: AbortSignal;
  /** Told as each shard opens for trading. */
  onShardReady?: (shard: number) => void;
}

/** Recovery given up because the service is closing (not a fault). */
export class RecoveryStopped extends Error {
  constructor() {
    super('recovery stopped: the service is closing');
  }
}

/**
 * Resolves once the ledger has applied every event the shard's queue still holds: its offset has
 * reached the highest sequence of any job left (a crashed consumer's job may stay "active" in
 * BullMQ for a while after ingest has applied it).
 */
async function drained(
  queue: Queue,
  shard: number,
  sql: Sql,
  log: (line: string) => void,
  pollMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  let reported = 0;
  for (;;) {
    if (signal?.aborted) throw new RecoveryStopped();
    // A command to an unreachable Redis waits for ever (ioredis retries): closing must not.
    const jobs = await abortable(
      queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed'], 0, -1),
      signal,
    );
    const highest = jobs.reduce(
      (max, job) => Math.max(max, (job?.data as { toSeq?: number } | undefined)?.toSeq ?? 0),
      0,
    );
    const [row] = await sql<{ last_seq: string }[]>`SELECT last_seq FROM shard_offsets WHERE shard = ${shard}`;
    const applied = Number(row?.last_seq ?? 0);
    if (applied >= highest) return;
    if (Date.now() - reported > 5000) {
      reported = Date.now();
      log(`shard ${shard} waits for ingest: the ledger is at event ${applied}, the queue holds up to ${highest}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** `work`, or RecoveryStopped as soon as `signal` aborts (`work` is left to settle unheard). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new RecoveryStopped());
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** How long each step of a recovery took, ms (docs/design/cluster.md: what bounds a takeover). */
export interface RecoveryTimings {
  /** Until ingest had applied what every shard's queue held. */
  drainMs: number;
  /** The ledger's consistent read. */
  readMs: number;
  /** Risk, open orders and every shard's books rebuilt from it, and trading open. */
  rebuildMs: number;
  openOrders: number;
}

export async function recoverShards(options: RecoveryOptions): Promise<RecoveryTimings> {
  const started = performance.now();
  const { sql, shards, core } = options;
  const log = options.log ?? ((line: string) => logger('clob.recovery').info(line));
  const { signal } = options;
  if (signal?.aborted) throw new RecoveryStopped();
  // One abort listener per shard's wait, and one here: not a leak past Node's default of 10.
  if (signal !== undefined) setMaxListeners(shards.count + 2, signal);
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  reportConnectionErrors(connection, 'recovery', options.redisUrl, log);
  // Closing disconnects: commands waiting for an unreachable Redis then fail at once.
  const stop = () => connection.disconnect();
  signal?.addEventListener('abort', stop);
  try {
    await Promise.all(
      Array.from({ length: shards.count }, async (_, shard) => {
        const queue = new Queue(shardQueueName(shard), { connection, prefix: options.redisPrefix });
        try {
          await drained(queue, shard, sql, log, options.pollMs ?? 200, signal);
        } catch (error) {
          throw signal?.aborted ? new RecoveryStopped() : error;
        }
        await queue.close();
      }),
    );
  } finally {
    signal?.removeEventListener('abort', stop);
    connection.disconnect();
  }

  const drainedAt = performance.now();
  const recentSince = Date.now() - options.known.windowMs;
  // A stop does not wait for it (it may wait on a transfer some session holds open).
  const state = await abortable(
    readLedgerState(sql, (market) => core.markets.get(market)?.ticksPerUnit, recentSince, log, signal),
    signal,
  );
  const readAt = performance.now();
  const moved = state.orders.find((o) => o.shard !== shards.shardOf(o.market));
  if (moved !== undefined) {
    throw new Error(
      `open order ${moved.orderId} rests on shard ${moved.shard}, but its market maps to shard ${shards.shardOf(moved.market)}: PMX_SHARDS changed while orders were open`,
    );
  }
  // Each market's place in its life as the ledger has it (the registry read it before the queues drained).
  for (const market of state.markets) {
    const record = core.markets.get(market.market);
    if (record !== undefined) applyState(record, market.state, market.payouts, market);
  }
  core.risk.restore(state);
  for (const market of state.markets) if (market.payouts !== null) core.risk.resolve(market.market, market.payouts);
  options.known.seed(state.recentOrders, recentSince);
  // Reservations are made oldest first (across shards), so if the balances cannot cover every
  // open order, the newest go. An uncovered order would fail the first fill against it; it is
  // restored and then cancelled through its shard, so the ledger closes it too.
  const uncovered = new Set<string>();
  const now = Date.now();
  for (const order of [...state.orders].sort((a, b) => a.acceptedAt - b.acceptedAt)) {
    // A GTD past its time (the server was down) expires at the shard's first command; it needs
    // no reservation and must not take one from a live order. Nor does an order whose API key
    // is gone: nobody could cancel it, so it is cancelled below.
    if ((order.expiresAt > 0 && order.expiresAt <= now) || order.keyDeleted) continue;
    const market = core.markets.get(order.market)!;
    const asset = order.side === Side.BUY ? COLLATERAL : order.assetId;
    if (
      core.risk.reserveOrder(order.orderId, order.owner, asset, {
        side: order.side,
        price: order.price,
        size: order.remaining,
        ticksPerUnit: market.ticksPerUnit,
      }) !== 'ok'
    ) {
      uncovered.add(order.orderId);
    }
  }
  for (const order of state.orders) core.openOrders.restore(order);
  await Promise.all(
    Array.from({ length: shards.count }, async (_, shard) => {
      const mine = state.orders.filter((o) => o.shard === shard);
      const lastTrades = [...state.lastTrades]
        .filter(([market]) => shards.shardOf(market) === shard)
        .map(([market, ticks]) => ({ market, ticks }));
      const result = await shards.submit(shard, {
        type: 'restore',
        seq: state.offsets.get(shard) ?? 0,
        orders: mine,
        lastTrades,
        markets: state.markets
          .filter((m) => shards.shardOf(m.market) === shard)
          .map(({ market, state: life, payouts }) => ({ market, state: life, payouts })),
      });
      if (result.type !== 'restore')
        throw new Error(`shard ${shard} could not restore: ${result.type === 'error' ? result.message : result.type}`);
      for (const order of mine.filter((o) => uncovered.has(o.orderId))) {
        log(
          `the ledger's balances cannot cover open order ${order.orderId} of ${order.owner}; it is cancelled (reason "uncovered")`,
        );
        // Not ok only when it has just expired (a GTD due by now): gone from the book either way.
        await shards.submit(shard, { type: 'cancel', orderId: order.orderId, owner: order.owner, reason: 'uncovered' });
      }
      // Orders of a deleted API key, left open by a crash while its orders were being cancelled:
      // nobody else can cancel them.
      for (const order of mine.filter((o) => o.keyDeleted)) {
        log(
          `open order ${order.orderId} belongs to the deleted API key ${order.ownerKey}; it is cancelled (reason "key-deleted")`,
        );
        await shards.submit(shard, {
          type: 'cancel',
          orderId: order.orderId,
          owner: order.owner,
          reason: 'key-deleted',
        });
      }
      // GTDs whose time came while the server was down leave the book, the open orders and the
      // ledger now, not at the shard's next sweep after trading opens.
      await shards.submit(shard, { type: 'expire' });
      core.markReady(shard);
      options.onShardReady?.(shard);
      log(
        `shard ${shard} ready (${result.orders} open orders, seq ${state.offsets.get(shard) ?? 0}, state ${result.stateHash})`,
      );
    }),
  );
  return {
    drainMs: drainedAt - started,
    readMs: readAt - drainedAt,
    rebuildMs: performance.now() - readAt,
    openOrders: state.orders.length,
  };
}

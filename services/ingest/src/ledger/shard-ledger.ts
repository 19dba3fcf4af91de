// Applies one shard's event batches to Postgres, one transaction per batch, strictly in sequence:
// the transaction locks the shard's offset row, skips a batch it already has (idempotent on
// shard + seq), refuses one that would leave a gap, writes the batch set-based and advances the
// offset. Batches of one shard never run concurrently (they queue on a promise chain).

import type { Sql } from '@pmx/db';
import { BookTracker, type RestingOrder } from '../history/book-tracker.ts';
import type { ShardEvent, ShardJob } from '@pmx/events';
import { planBatch } from './batch-plan.ts';
import {
  ensurePositions,
  insertBuilderTrades,
  insertEntries,
  insertFills,
  insertMidpoints,
  insertOrders,
  insertTrades,
  lockPositions,
  positionFromRow,
  touchedPositions,
  updateOrders,
  upsertBalances,
  upsertCollateral,
  updateMarketStates,
  writePositions,
  type MidpointRow,
  type Tx,
} from './ledger-sql.ts';
import type { MarketDirectory } from './market-directory.ts';
import { emptyPosition, foldPositions, positionKey, type Position } from './positions.ts';

/** Postgres NOTIFY channel: payload `<shard>:<last seq>` once a batch is committed. */
export const LEDGER_CHANNEL = 'pmx_ledger';

export type ApplyOutcome =
  | { kind: 'applied'; lastSeq: number; events: number; trades: number; midpoints: MidpointRow[] }
  | { kind: 'duplicate'; lastSeq: number }
  | { kind: 'gap'; lastSeq: number; expected: number; got: number };

/** A replayed batch whose events are not the ones recorded under those sequence numbers. */
export class SequenceReuseError extends Error {
  override readonly name = 'SequenceReuseError';
}

interface OpenOrderRow {
  order_id: string;
  market: string;
  token: 0 | 1;
  side: 'BUY' | 'SELL';
  price_ticks: number;
  remaining: string;
}

export class ShardLedger {
  private readonly tracker: BookTracker;
  private trackerReady = false;
  private tail: Promise<unknown> = Promise.resolve();
  /** The offset as of this ledger's last transaction (null until one ran). */
  private known: number | null = null;

  constructor(
    private readonly sql: Sql,
    readonly shard: number,
    private readonly markets: MarketDirectory,
  ) {
    this.tracker = new BookTracker((market) => this.markets.get(market).ticksPerUnit);
  }

  /**
   * Applies consecutive batches (one, or several grouped into one transaction) after everything
   * handed in before has finished. Midpoints are still taken at each batch's end.
   */
  apply(batches: ShardJob | readonly ShardJob[]): Promise<ApplyOutcome> {
    const list = Array.isArray(batches) ? (batches as readonly ShardJob[]) : [batches as ShardJob];
    const run = this.tail.then(() => this.applyNow(list));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The highest sequence number committed for this shard (0 before the first batch). */
  async lastSeq(): Promise<number> {
    const [row] = await this.sql<
      { last_seq: string }[]
    >`SELECT last_seq FROM shard_offsets WHERE shard = ${this.shard}`;
    return row === undefined ? 0 : Number(row.last_seq);
  }

  /**
   * The offset as this ledger last saw it, read from Postgres the first time. Only a hint for
   * grouping batches: every transaction still checks the offset under its row lock.
   */
  async knownLastSeq(): Promise<number> {
    if (this.known === null) this.known = await this.lastSeq();
    return this.known;
  }

  private async loadTracker(): Promise<void> {
    const open = await this.sql<OpenOrderRow[]>`
      SELECT order_id, market, token, side, price_ticks, (size - matched)::text AS remaining
        FROM orders WHERE shard = ${this.shard} AND status = 'live'`;
    const mids = await this.sql<{ market: string; mid: number }[]>`
      SELECT DISTINCT ON (market) market, bid_ticks + ask_ticks AS mid
        FROM midpoint_changes WHERE shard = ${this.shard} ORDER BY market, seq DESC`;
    await this.markets.load([...open.map((o) => o.market), ...mids.map((m) => m.market)]);
    const resting: RestingOrder[] = open.map((o) => ({
      orderId: o.order_id,
      market: o.market,
      token: o.token,
      side: o.side === 'BUY' ? 0 : 1,
      price: o.price_ticks,
      remaining: Number(o.remaining),
    }));
    this.tracker.reset(resting, new Map(mids.map((m) => [m.market, m.mid])));
    this.trackerReady = true;
  }

  private async applyNow(batches: readonly ShardJob[]): Promise<ApplyOutcome> {
    if (batches.length === 0) throw new Error('no batch to apply');
    if (batches.some((b) => b.shard !== this.shard))
      throw new Error(`a batch of another shard was handed to the ledger of shard ${this.shard}`);
    const range = { fromSeq: batches[0]!.fromSeq, toSeq: Math.max(...batches.map((b) => b.toSeq)) };
    if (!this.trackerReady) await this.loadTracker();
    await this.markets.load(batches.flatMap((b) => b.events.map((e) => e.market)));
    let trackerMoved = false;
    try {
      const outcome = await this.sql.begin(async (tx) => {
        const [offset] = await tx<{ last_seq: string }[]>`
          INSERT INTO shard_offsets (shard, last_seq) VALUES (${this.shard}, 0)
          ON CONFLICT (shard) DO UPDATE SET shard = EXCLUDED.shard
          RETURNING last_seq`;
        const last = Number(offset!.last_seq);
        if (range.toSeq <= last) {
          await this.verifyReplay(tx, batches[0]!);
          return { kind: 'duplicate', lastSeq: last } as const;
        }
        if (range.fromSeq > last + 1)
          return { kind: 'gap', lastSeq: last, expected: last + 1, got: range.fromSeq } as const;
        // Each event once, in sequence: what the ledger has is skipped, overlapping batches too.
        const events: ShardEvent[] = [];
        const midpoints: MidpointRow[] = [];
        let seen = last;
        trackerMoved = true;
        for (const batch of batches) {
          const fresh = batch.events.filter((e) => e.seq > seen);
          if (fresh.length === 0) continue;
          seen = fresh[fresh.length - 1]!.seq;
          events.push(...fresh);
          const at = fresh[fresh.length - 1]!.at;
          for (const change of this.tracker.apply(fresh)) midpoints.push({ ...change, seq: batch.toSeq, at });
        }
        const trades = await this.write(tx, events, range.toSeq, midpoints);
        return { kind: 'applied', lastSeq: range.toSeq, events: events.length, trades, midpoints } as const;
      });
      this.known = outcome.lastSeq;
      return outcome;
    } catch (error) {
      // The tracker already moved past a batch that did not commit: rebuild it from the ledger.
      if (trackerMoved) this.trackerReady = false;
      throw error;
    }
  }

  private async write(tx: Tx, events: ShardEvent[], toSeq: number, midpoints: MidpointRow[]): Promise<number> {
    const plan = planBatch(events, (id) => this.markets.get(id));
    const keys = touchedPositions(plan.movements);
    const updates = updateOrders(tx, this.shard, plan);
    const writes = [
      insertOrders(tx, this.shard, plan),
      updates,
      insertTrades(tx, this.shard, plan),
      insertFills(tx, this.shard, plan),
      insertBuilderTrades(tx, plan),
      insertEntries(tx, this.shard, plan),
      upsertBalances(tx, plan),
      upsertCollateral(tx, plan),
      insertMidpoints(tx, this.shard, midpoints),
      updateMarketStates(tx, plan),
      ensurePositions(tx, keys),
    ];
    // Issued in this order on the transaction's connection; positions are locked last.
    const results = await Promise.all([...writes, keys.length > 0 ? lockPositions(tx, keys) : null]);
    const updated = results[1]?.count ?? 0;
    if (updated !== plan.orderUpdates.length) {
      throw new Error(
        `shard ${this.shard}: ${plan.orderUpdates.length - updated} filled or closed orders are missing from the ledger`,
      );
    }
    const locked = (results[writes.length] ?? []) as Awaited<ReturnType<typeof lockPositions>>;
    const current = new Map<string, Position>();
    for (const key of keys)
      current.set(positionKey(key.address, key.asset), emptyPosition(key.address, key.asset, key.market, key.token));
    for (const row of locked)
      current.set(
        positionKey(row.address, row.asset),
        positionFromRow(row, current.get(positionKey(row.address, row.asset))!),
      );
    const positions = foldPositions(current, plan.movements);
    await Promise.all(
      [
        writePositions(tx, [...positions.values()]),
        tx`UPDATE shard_offsets SET last_seq = ${toSeq}, updated_at = now() WHERE shard = ${this.shard}`,
        tx`SELECT pg_notify(${LEDGER_CHANNEL}, ${`${this.shard}:${toSeq}`})`,
      ].filter((query) => query !== null),
    );
    return plan.trades.length;
  }

  /** A batch at or below the offset must be the one recorded: a restarted engine reusing numbers is refused. */
  private async verifyReplay(tx: Tx, job: ShardJob): Promise<void> {
    for (const event of job.events) {
      if (event.type === 'accepted') {
        const [row] = await tx<
          { shard: number; accepted_seq: string }[]
        >`SELECT shard, accepted_seq FROM orders WHERE order_id = ${event.orderId}`;
        if (row === undefined || row.shard !== this.shard || Number(row.accepted_seq) !== event.seq)
          throw this.reuse(job, `order ${event.orderId}`);
        return;
      }
      if (event.type === 'trade') {
        const [row] = await tx<
          { taker_order_id: string }[]
        >`SELECT taker_order_id FROM trades WHERE trade_id = ${event.tradeId}`;
        if (row === undefined || row.taker_order_id !== event.takerOrderId)
          throw this.reuse(job, `trade ${event.tradeId}`);
        return;
      }
    }
  }

  private reuse(job: ShardJob, what: string): SequenceReuseError {
    return new SequenceReuseError(
      `shard ${this.shard}: batch ${job.fromSeq}..${job.toSeq} is at or below the ledger's offset but ${what} was not recorded under it; ` +
        'the engine must continue its sequence numbers from shard_offsets.last_seq after a restart',
    );
  }
}

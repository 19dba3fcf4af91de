// Copies committed history from Postgres into ClickHouse behind the ledger, never in its way:
// per shard it keeps the last sequence number ClickHouse has, and on a timer (or at once when
// enough committed events are pending) compares it with shard_offsets, reads the newer trades,
// fills and midpoint changes from Postgres and inserts them in one batch per table. Postgres
// commits first and is the outbox, so a crash or a ClickHouse outage only delays the history;
// nothing buffered in memory can be lost. It needs nothing from ingest but Postgres, so it can
// run in whichever process owns the ClickHouse connection (embedded chdb: one process only).

import type { ClickHouseClient } from '@pmx/clickhouse';
import type { Sql } from '@pmx/db';
import { ensureHistorySchema, HISTORY_TABLES } from '../history-tables.ts';
import { readHistoryRows } from './history-rows.ts';
import { logger } from '@pmx/config';

export interface HistoryFollowerOptions {
  sql: Sql;
  ch: ClickHouseClient;
  /** Longest a committed batch waits before it is copied. Default 200 ms. */
  flushIntervalMs?: number;
  /** Copy at once when this many committed events wait. Default 5,000. */
  flushEvents?: number;
  /** Most sequence numbers of one shard copied in one insert. Default 20,000. */
  maxSeqPerFlush?: number;
  /** Called after a shard's history is in ClickHouse up to `seq`. */
  onFlushed?: (shard: number, seq: number, at: number) => void;
  log?: (message: string) => void;
}

export class HistoryFollower {
  private readonly copied = new Map<number, number>();
  private readonly committed = new Map<number, number>();
  private pendingEvents = 0;
  /** ledger_identity.id of the Postgres ledger, recorded with every offset. */
  private ledgerId = '';
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private failures = 0;
  private readonly log: (message: string) => void;

  constructor(private readonly options: HistoryFollowerOptions) {
    this.log = options.log ?? ((message) => logger('history').warn(message));
  }

  /** Creates the tables, learns how far ClickHouse is for each shard, and starts copying. */
  async start(): Promise<void> {
    const { ch, sql } = this.options;
    await ensureHistorySchema(ch);
    const [identity] = await sql<{ id: string }[]>`SELECT id::text AS id FROM ledger_identity`;
    this.ledgerId = identity!.id;
    const result = await ch.query({
      query: `SELECT shard, max(seq) AS seq, groupUniqArray(ledger) AS ledgers FROM ${HISTORY_TABLES.offsets} GROUP BY shard`,
      format: 'JSONEachRow',
    });
    const offsets = await result.json<{ shard: number; seq: string; ledgers: string[] }>();
    const foreign = offsets.find((row) => row.ledgers.some((ledger) => ledger !== this.ledgerId));
    if (foreign !== undefined) {
      // '' is history copied before offsets named their ledger: it cannot be told apart.
      const from = foreign.ledgers.find((ledger) => ledger !== this.ledgerId) || 'a ledger that did not record its id';
      await this.rebuild(`history in ClickHouse was copied from ${from}, not from this ledger (${this.ledgerId})`);
    } else {
      for (const row of offsets) this.copied.set(row.shard, Number(row.seq));
    }
    await this.readLedgerOffsets();
    this.schedule();
  }

  private async rebuild(why: string): Promise<void> {
    this.log(`${why}: ClickHouse holds another ledger's history; rebuilding it from this ledger`);
    for (const table of Object.values(HISTORY_TABLES))
      await this.options.ch.command({ query: `TRUNCATE TABLE IF EXISTS ${table}` });
    this.copied.clear();
    this.committed.clear();
  }

  /**
   * ClickHouse only ever holds what the ledger committed, so history ahead of the ledger (a shard
   * further on, or one the ledger has not seen) belongs to another ledger: a database recreated or
   * restored from a backup while the history directory stayed. It is derived data: it is dropped
   * and copied again from this ledger, rather than served stale or copied over with gaps.
   */
  private async readLedgerOffsets(): Promise<void> {
    const rows = await this.options.sql<
      { shard: number; last_seq: string }[]
    >`SELECT shard, last_seq FROM shard_offsets`;
    const ledger = new Map(rows.map((row) => [row.shard, Number(row.last_seq)]));
    const ahead = [...this.copied].find(([shard, copied]) => copied > (ledger.get(shard) ?? 0));
    if (ahead !== undefined) {
      const [shard, copied] = ahead;
      await this.rebuild(
        `history of shard ${shard} is at ${copied} in ClickHouse but the ledger only at ${ledger.get(shard) ?? 0}`,
      );
    }
    for (const [shard, committed] of ledger) {
      if (committed > (this.committed.get(shard) ?? 0)) this.committed.set(shard, committed);
    }
  }

  /** A hint from an in-process consumer: a batch of `events` was committed for `shard` up to `seq`. */
  notify(shard: number, seq: number, events: number): void {
    if (seq > (this.committed.get(shard) ?? 0)) this.committed.set(shard, seq);
    this.pendingEvents += events;
    if (this.pendingEvents >= (this.options.flushEvents ?? 5000) && this.running === null)
      void this.flush().catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    const base = this.options.flushIntervalMs ?? 200;
    const delay = this.failures === 0 ? base : Math.min(base * 2 ** this.failures, 10_000);
    this.timer = setTimeout(() => {
      this.flush()
        .catch(() => undefined)
        .finally(() => this.schedule());
    }, delay);
    this.timer.unref();
  }

  /** One pass: copies every shard that is behind. Concurrent callers share the pass. */
  flush(): Promise<void> {
    if (this.running === null) {
      this.running = this.copyAll().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async copyAll(): Promise<void> {
    this.pendingEvents = 0;
    try {
      await this.readLedgerOffsets();
      for (const [shard, committed] of this.committed) {
        while ((this.copied.get(shard) ?? 0) < committed) await this.copyShard(shard, committed);
      }
      if (this.failures > 0) this.log(`history copy to ClickHouse resumed after ${this.failures} failed attempts`);
      this.failures = 0;
    } catch (error) {
      if (this.failures++ === 0)
        this.log(`history copy to ClickHouse failed (the ledger is unaffected; retrying): ${(error as Error).message}`);
      throw error;
    }
  }

  private async copyShard(shard: number, committed: number): Promise<void> {
    const from = this.copied.get(shard) ?? 0;
    const to = Math.min(committed, from + (this.options.maxSeqPerFlush ?? 20_000));
    const rows = await readHistoryRows(this.options.sql, shard, from, to);
    const { ch } = this.options;
    if (rows.trades.length > 0)
      await ch.insert({ table: HISTORY_TABLES.trades, values: rows.trades, format: 'JSONEachRow' });
    if (rows.points.length > 0)
      await ch.insert({ table: HISTORY_TABLES.pricePoints, values: rows.points, format: 'JSONEachRow' });
    const at = Date.now();
    await ch.insert({
      table: HISTORY_TABLES.offsets,
      values: [{ shard, seq: to, at, ledger: this.ledgerId }],
      format: 'JSONEachRow',
    });
    this.copied.set(shard, to);
    this.options.onFlushed?.(shard, to, at);
  }

  /** Copies until ClickHouse has everything committed so far (tests, shutdown). */
  async catchUp(): Promise<void> {
    await this.readLedgerOffsets();
    const target = new Map(this.committed);
    while ([...target].some(([shard, seq]) => (this.copied.get(shard) ?? 0) < seq)) await this.flush();
  }

  copiedSeq(shard: number): number {
    return this.copied.get(shard) ?? 0;
  }

  /** Stops the timer and makes one last attempt to copy what is committed. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await this.flush().catch((error: Error) =>
      this.log(`history: last copy before stopping failed (copied on next start): ${error.message}`),
    );
  }
}

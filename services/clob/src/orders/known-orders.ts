// Which order ids were used already, so a replayed signed order is refused even after a restart.
//
// An order signed within the replay window (its own timestamp within `windowMs` of now, either
// way) is answered from memory alone: every accepted order stays in memory until its timestamp
// has left the window (deadline = max(signed, accepted) + window), and a restart reloads, before
// any market is ready, the ids of every order signed since the window's start from the ledger
// (`seed`). Any other order (signed long ago, far in the future, or with a timestamp that is not
// a safe integer) is looked up in the ledger's orders table: the ids of one event-loop turn go in
// one query, and one query at a time, carrying every id that arrived while the previous one was
// out, so the batches grow with the load.
//
// So an id leaves memory only once the ledger holds it: past its deadline it is looked up (in
// batches, one query at a time) and kept, to be checked again `RECHECK_MS` later, while ingest has
// not written it yet. Else an order accepted while ingest was down or behind by more than the
// window could be replayed: memory would have let it go, and the ledger would not know it yet.
//
// Memory answers only for timestamps after `horizon`, the latest timestamp it may have let go of
// (or not loaded at a restart). Without it, a wall clock stepped back (NTP) would bring the
// timestamps of ids let go of back into the window, and memory alone would say they were unused.

import type { Sql } from '@pmx/db';
import { HttpError } from '@pmx/http';
import { DeadlineHeap } from './deadline-heap.ts';
import { logger } from '@pmx/config';

export interface KnownOrdersOptions {
  /** How far (ms) an order's timestamp may be from now, either way, to be answered from memory. */
  windowMs: number;
  now?: () => number;
}

/** How soon an id past its deadline that the ledger did not hold yet is checked again. */
export const RECHECK_MS = 5000;

interface Waiter {
  resolve: (known: boolean) => void;
  reject: (error: Error) => void;
}

export class KnownOrders {
  /** Ids in memory and when each may be forgotten (the latest deadline, if re-added). */
  private readonly recent = new Map<string, number>();
  private readonly deadlines = new DeadlineHeap();
  private readonly now: () => number;
  private waiting = new Map<string, Waiter[]>();
  private looking = false;
  /** Ids past their deadline, to be let go once the ledger holds them. */
  private confirming: string[] = [];
  private checking = false;
  /** Ledger lookups made, for tests and diagnostics. */
  lookups = 0;
  /** Ids signed at or before this may have left memory (or never entered it): ask the ledger. */
  private horizon = -Infinity;

  constructor(
    private readonly sql: Sql,
    private readonly options: KnownOrdersOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get windowMs(): number {
    return this.options.windowMs;
  }

  /** Remembers an accepted order id until its timestamp has left the window. */
  add(orderId: string, signedAt: number): void {
    const now = this.now();
    this.evict(now);
    if (this.recent.has(orderId)) return;
    const deadline = Math.max(signedAt, now) + this.options.windowMs;
    this.recent.set(orderId, deadline);
    this.deadlines.push(deadline, orderId);
  }

  /** An id the engine refused (a killed FOK, a crossing post-only) was never used. */
  forget(orderId: string): void {
    this.recent.delete(orderId);
  }

  /** After a restart: the ids of the orders signed at or after `since`, from the ledger. */
  seed(orders: readonly { orderId: string; signedAt: number }[], since: number): void {
    this.horizon = Math.max(this.horizon, since - 1);
    for (const order of orders) this.add(order.orderId, order.signedAt);
  }

  /** Whether the id was used before: synchronous inside the window, a ledger lookup outside it. */
  has(orderId: string, signedAt: number): boolean | Promise<boolean> {
    const now = this.now();
    this.evict(now);
    if (this.recent.has(orderId)) return true;
    if (signedAt > this.horizon && signedAt > 0 && Math.abs(signedAt - now) <= this.options.windowMs) return false;
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(orderId);
      if (list !== undefined) list.push({ resolve, reject });
      else this.waiting.set(orderId, [{ resolve, reject }]);
      if (!this.looking) {
        this.looking = true;
        setImmediate(() => void this.lookup());
      }
    });
  }

  get size(): number {
    return this.recent.size;
  }

  private evict(now: number): void {
    for (let id = this.deadlines.popBefore(now); id !== undefined; id = this.deadlines.popBefore(now)) {
      // A forgotten id may have been accepted again since, with a later deadline of its own.
      const deadline = this.recent.get(id);
      if (deadline !== undefined && deadline < now) this.confirming.push(id);
    }
    if (this.confirming.length > 0 && !this.checking) {
      this.checking = true;
      void this.confirm();
    }
  }

  /** Runs while `checking`: lets go of the ids the ledger holds, keeps the rest for a while more. */
  private async confirm(): Promise<void> {
    while (this.confirming.length > 0) {
      const ids = this.confirming;
      this.confirming = [];
      // The ledger away: keep them all.
      const held = await this.inLedger(ids).catch(() => new Set<string>());
      const now = this.now();
      for (const id of ids) {
        const deadline = this.recent.get(id);
        if (deadline === undefined || deadline >= now) continue; // forgotten, or accepted again since
        if (held.has(id)) {
          this.recent.delete(id);
          // Its deadline less the window is at or after its timestamp.
          this.horizon = Math.max(this.horizon, deadline - this.options.windowMs);
        } else {
          this.recent.set(id, now + RECHECK_MS);
          this.deadlines.push(now + RECHECK_MS, id);
        }
      }
    }
    this.checking = false;
  }

  /** Which of `ids` the ledger's orders table holds. */
  private async inLedger(ids: string[]): Promise<Set<string>> {
    const rows = await this.sql<{ order_id: string }[]>`SELECT order_id FROM orders WHERE order_id = ANY(${ids})`;
    return new Set(rows.map((r) => r.order_id));
  }

  /** Runs while `looking`: one query at a time until nothing waits. */
  private async lookup(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = this.waiting;
      this.waiting = new Map();
      this.lookups++;
      let found: Set<string>;
      try {
        found = await this.inLedger([...batch.keys()]);
      } catch (error) {
        // Unknown is not "new": the order is refused (retryable) rather than risk a replay.
        logger('clob').error(`order-id lookup failed: ${error instanceof Error ? error.message : String(error)}`);
        const unavailable = new HttpError(503, 'the order ledger is unavailable; retry shortly');
        for (const waiters of batch.values()) for (const w of waiters) w.reject(unavailable);
        continue;
      }
      // An id accepted while the query was out (a concurrent twin) counts as known too.
      for (const [id, waiters] of batch) for (const w of waiters) w.resolve(found.has(id) || this.recent.has(id));
    }
    this.looking = false;
  }
}

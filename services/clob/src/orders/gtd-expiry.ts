// Expires GTD orders at their time. A shard expires due orders before every command; with only a
// one-second sweep besides, an expired order's funds would stay reserved and it would show LIVE for
// up to a second, refusing a new order needing those funds. So a timer set for the earliest expiry
// among open GTDs asks that order's shard to expire what is due.
//
// The timer waits at most a second (a GTD a month out, or a wall clock stepped forward, is then
// still noticed), and an order it asked about is looked at again a second later, in case the shard
// did not expire it (its clock stepped back, or the request failed).
//
// The heap is lazy: an order that fills or is cancelled first leaves its entry until its time (the
// entry then finds no open order and does nothing); once entries outnumber twice the open orders,
// the heap is rebuilt from the open GTDs, so placing and cancelling far-dated GTDs cannot grow it.

import { DeadlineHeap } from './deadline-heap.ts';
import type { OpenOrders } from './open-orders.ts';

const COMPACT_ABOVE = 1024;
const MAX_WAIT_MS = 1000;
const RECHECK_MS = 1000;

export class GtdExpiry {
  private heap = new DeadlineHeap();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly openOrders: OpenOrders,
    /** Asks the shard of `market` to expire its due orders. */
    private readonly expire: (market: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** An order now open, due at `expiresAt` (ms; 0 never expires). */
  track(orderId: string, expiresAt: number): void {
    if (expiresAt === 0 || this.closed) return;
    this.heap.push(expiresAt, orderId);
    if (this.heap.size > COMPACT_ABOVE && this.heap.size > 2 * this.openOrders.size) this.compact();
    this.arm();
  }

  /** Deadlines waiting (open GTDs, and closed ones until their time or the next compaction). */
  get pending(): number {
    return this.heap.size;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private compact(): void {
    const heap = new DeadlineHeap();
    for (const order of this.openOrders.all()) if (order.expiresAt > 0) heap.push(order.expiresAt, order.orderId);
    this.heap = heap;
  }

  private arm(): void {
    const next = this.heap.peek();
    if (next === undefined || next >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next;
    // At most a second: Node cannot wait past 2^31 ms (24.8 days; it fires at once, for ever),
    // and a wall clock stepped forward would otherwise leave a due order waiting out the old delay.
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, next - this.now()), MAX_WAIT_MS));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.closed) return;
    const now = this.now();
    const markets = new Set<string>();
    const asked: string[] = [];
    for (let id = this.heap.popBefore(now + 1); id !== undefined; id = this.heap.popBefore(now + 1)) {
      const order = this.openOrders.get(id);
      if (order === undefined) continue;
      if (order.expiresAt <= now) {
        markets.add(order.market);
        asked.push(id);
      } else {
        this.heap.push(order.expiresAt, id); // a re-check entry that came up before its order's time
      }
    }
    // Looked at again in a second: gone by then unless the shard did not expire it (its clock
    // stepped back, or the request failed), and then it is asked again.
    for (const id of asked) this.heap.push(now + RECHECK_MS, id);
    for (const market of markets) this.expire(market);
    this.arm();
  }
}

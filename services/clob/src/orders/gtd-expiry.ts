// Expires GTD orders at their time. The shards expire due orders before every command and on the
// one-second sweep; between the two, an expired order's funds stayed reserved and it showed LIVE
// for up to a second, and a new order needing those funds was refused. A timer set for the
// earliest expiry among open GTDs now asks that order's shard to expire what is due.
//
// The heap is lazy: an order that fills or is cancelled first leaves its entry until its time (the
// entry then finds no open order and does nothing); once entries outnumber twice the open orders,
// the heap is rebuilt from the open GTDs, so placing and cancelling far-dated GTDs cannot grow it.

import { DeadlineHeap } from './deadline-heap.ts';
import type { OpenOrders } from './open-orders.ts';

const COMPACT_ABOVE = 1024;

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
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - this.now()));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.closed) return;
    const now = this.now();
    const markets = new Set<string>();
    for (let id = this.heap.popBefore(now + 1); id !== undefined; id = this.heap.popBefore(now + 1)) {
      const order = this.openOrders.get(id);
      if (order !== undefined && order.expiresAt <= now) markets.add(order.market);
    }
    for (const market of markets) this.expire(market);
    this.arm();
  }
}

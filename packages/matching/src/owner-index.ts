// Each owner's resting orders, as a doubly linked list through the order store's ownerPrev /
// ownerNext, with a count per owner: cancel-all walks it, and the FOK/FAK fill check uses both.
import type { OrderStore } from './order-store.ts';

const NONE = -1;

export class OwnerIndex {
  private head = new Int32Array(1024).fill(NONE);
  private counts = new Int32Array(1024);

  constructor(private readonly orders: OrderStore) {}

  /** The owner's most recent resting order's slot (follow `orders.ownerNext`), or -1. */
  first(owner: number): number {
    return owner < this.head.length ? this.head[owner]! : NONE;
  }

  count(owner: number): number {
    return owner < this.counts.length ? this.counts[owner]! : 0;
  }

  link(slot: number, owner: number): void {
    const o = this.orders;
    if (owner >= this.head.length) this.grow(owner);
    const head = this.head[owner]!;
    o.ownerPrev[slot] = NONE;
    o.ownerNext[slot] = head;
    if (head !== NONE) o.ownerPrev[head] = slot;
    this.head[owner] = slot;
    this.counts[owner]!++;
  }

  unlink(slot: number): void {
    const o = this.orders;
    const prev = o.ownerPrev[slot]!;
    const next = o.ownerNext[slot]!;
    if (next !== NONE) o.ownerPrev[next] = prev;
    if (prev !== NONE) o.ownerNext[prev] = next;
    else this.head[o.owner[slot]!] = next;
    this.counts[o.owner[slot]!]!--;
  }

  private grow(owner: number): void {
    let length = this.head.length;
    while (length <= owner) length *= 2;
    const head = new Int32Array(length).fill(NONE);
    head.set(this.head);
    this.head = head;
    const counts = new Int32Array(length);
    counts.set(this.counts);
    this.counts = counts;
  }
}

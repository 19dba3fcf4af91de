// One market's unified book: FIFO queues of order slots per price level and side, in the first
// token's ticks, with a bitset per side so the next best level is found without a long scan.

import type { OrderStore } from './order-store.ts';

export const BID = 0;
export const ASK = 1;
const NONE = -1;
/**
 * A level's total is kept in two exact parts, high·2^26 + low: each order's size (< 2^50) adds
 * floor(size / 2^26) to high and its rest to low. A single Float64 sum loses base units past 2^57
 * (≈ 1.4 · 10^11 tokens at one level), and the FOK/FAK check decides on it.
 */
export const SPLIT = 2 ** 26;
/** |low| past this is carried into high, so neither part ever leaves the exact integers. */
export const CARRY = 2 ** 45;

export class PriceLevels {
  readonly ticks: number;
  /** head[side][price], tail[side][price]: first and last order slot of a level's FIFO. */
  readonly head: [Int32Array, Int32Array];
  readonly tail: [Int32Array, Int32Array];
  /** Total open base units per level, in two exact parts (see SPLIT): use depthOf. */
  readonly depthHigh: [Float64Array, Float64Array];
  readonly depthLow: [Float64Array, Float64Array];
  private readonly bits: [Uint32Array, Uint32Array];
  /** Best bid (0 when none) and best ask (ticks when none). */
  bestBid = 0;
  bestAsk: number;

  constructor(ticks: number) {
    this.ticks = ticks;
    const n = ticks + 1;
    this.head = [new Int32Array(n).fill(NONE), new Int32Array(n).fill(NONE)];
    this.tail = [new Int32Array(n).fill(NONE), new Int32Array(n).fill(NONE)];
    this.depthHigh = [new Float64Array(n), new Float64Array(n)];
    this.depthLow = [new Float64Array(n), new Float64Array(n)];
    const words = (n + 31) >>> 5;
    this.bits = [new Uint32Array(words), new Uint32Array(words)];
    this.bestAsk = ticks;
  }

  /** Appends a slot at the back of its level (time priority). */
  append(orders: OrderStore, slot: number): void {
    const side = orders.bookSide[slot];
    const price = orders.price[slot];
    const tail = this.tail[side][price];
    orders.prev[slot] = tail;
    orders.next[slot] = NONE;
    if (tail === NONE) {
      this.head[side][price] = slot;
      this.bits[side][price >>> 5] |= 1 << (price & 31);
      if (side === BID) {
        if (price > this.bestBid) this.bestBid = price;
      } else if (price < this.bestAsk) this.bestAsk = price;
    } else {
      orders.next[tail] = slot;
    }
    this.tail[side][price] = slot;
    this.addDepth(side, price, orders.remaining[slot]);
  }

  /** A level's total open base units (rounded to a double past 2^53: see exactDepthOf). */
  depthOf(side: number, price: number): number {
    return this.depthHigh[side][price] * SPLIT + this.depthLow[side][price];
  }

  /** A level's total open base units, exactly: a number up to 2^53 − 1, a bigint past it (book views). */
  exactDepthOf(side: number, price: number): number | bigint {
    const high = this.depthHigh[side][price];
    const low = this.depthLow[side][price];
    // high · 2^26 is exact and rounding is monotonic, so a total past 2^53 never reads as safe.
    const total = high * SPLIT + low;
    return Number.isSafeInteger(total) ? total : BigInt(high) * BigInt(SPLIT) + BigInt(low);
  }

  /** Adds (or, negative, takes) `size` base units to a level's total. */
  addDepth(side: number, price: number, size: number): void {
    const high = Math.trunc(size / SPLIT);
    this.depthHigh[side][price] += high;
    const low = (this.depthLow[side][price] += size - high * SPLIT);
    if (low >= CARRY || low <= -CARRY) {
      const carried = Math.trunc(low / SPLIT);
      this.depthHigh[side][price] += carried;
      this.depthLow[side][price] = low - carried * SPLIT;
    }
  }

  /** Unlinks a slot from its level; its remaining size is taken off the level's depth. */
  remove(orders: OrderStore, slot: number): void {
    const side = orders.bookSide[slot];
    const price = orders.price[slot];
    const prev = orders.prev[slot];
    const next = orders.next[slot];
    if (prev === NONE) this.head[side][price] = next;
    else orders.next[prev] = next;
    if (next === NONE) this.tail[side][price] = prev;
    else orders.prev[next] = prev;
    this.addDepth(side, price, -orders.remaining[slot]);
    if (this.head[side][price] === NONE) this.clearLevel(side, price);
  }

  private clearLevel(side: number, price: number): void {
    this.depthHigh[side][price] = 0;
    this.depthLow[side][price] = 0;
    this.bits[side][price >>> 5] &= ~(1 << (price & 31));
    if (side === BID) {
      if (price === this.bestBid) this.bestBid = this.highestAtOrBelow(BID, price - 1);
    } else if (price === this.bestAsk) {
      this.bestAsk = this.lowestAtOrAbove(ASK, price + 1);
    }
  }

  /** Highest occupied price ≤ from on a side, or 0. */
  highestAtOrBelow(side: number, from: number): number {
    if (from <= 0) return 0;
    const bits = this.bits[side];
    let word = from >>> 5;
    let mask = bits[word] & (0xffffffff >>> (31 - (from & 31)));
    for (;;) {
      if (mask !== 0) return (word << 5) + 31 - Math.clz32(mask);
      if (word === 0) return 0;
      mask = bits[--word];
    }
  }

  /** Lowest occupied price ≥ from on a side, or ticks. */
  lowestAtOrAbove(side: number, from: number): number {
    if (from >= this.ticks) return this.ticks;
    const bits = this.bits[side];
    const last = bits.length - 1;
    let word = from >>> 5;
    let mask = bits[word] & ~((1 << (from & 31)) - 1);
    for (;;) {
      if (mask !== 0) {
        const price = (word << 5) + 31 - Math.clz32(mask & -mask);
        return price < this.ticks ? price : this.ticks;
      }
      if (word === last) return this.ticks;
      mask = bits[++word];
    }
  }

  /** Next occupied level after `price` going away from the spread, or the side's sentinel. */
  nextLevel(side: number, price: number): number {
    return side === BID ? this.highestAtOrBelow(BID, price - 1) : this.lowestAtOrAbove(ASK, price + 1);
  }
}

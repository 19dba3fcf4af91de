// The engine bench's peer: the same workload played into `nodejs-order-book` (a public limit
// order book for Node), one book per market. The peer has one book of one instrument, so each
// order of the second token is mapped to its mirror on the first (a BUY of No at q is a SELL of
// Yes at 1 − q: docs/design/unified-book.md), and both engines see the same book. Self-trades
// expire the resting order in both (pmx cancels the resting one; the peer's EXPIRE_MAKER).
//
// The peer has no refusal step for takers, so pmx's is applied to the peer's book before the
// order reaches it: a FAK that no other owner's order crosses, or a FOK that other owners cannot
// fill whole, is refused and changes nothing (docs/design/unified-book.md). The peer alone would
// instead expire the taker's own crossed orders (its IOC and FOK run self-trade prevention with
// nothing to fill), and a FOK it judged fillable by counting those orders would fill part and
// rest the remainder in the book.

import { OrderBook, SelfTradePreventionMode, Side as PeerSide } from 'nodejs-order-book';
import { OrderType, Side } from '@pmx/matching';
import { LOT, OP_CANCEL, TICKS, type Workload } from './workload.ts';

const TIME_IN_FORCE: Record<number, 'GTC' | 'IOC' | 'FOK'> = {
  [OrderType.GTC]: 'GTC',
  [OrderType.FAK]: 'IOC',
  [OrderType.FOK]: 'FOK',
};

const RING = 4096;
const NONE_EXPIRED: readonly string[] = [];

/** A price level as the bench compares books: price in the first token's ticks, size in lots. */
export type LotLevel = [price: number, lots: number];

/**
 * The peer's books for one run, fed one workload operation at a time. Cancels pick from a ring of
 * the orders that rested, as the pmx run does, so equal books cancel the same orders.
 */
export class PeerBooks {
  private readonly books: OrderBook[];
  /** Per market, each owner's ids that rested there (ids since filled or cancelled pruned lazily). */
  private readonly resting: Map<number, string[]>[];
  private readonly ringId = new Array<string>(RING);
  private readonly ringMarket = new Uint16Array(RING);
  private ringLen = 0;
  private ringPos = 0;
  /** FAK/FOK refused on pmx's rule before reaching the peer. */
  refused = 0;
  /** Of those, the ones that crossed their owner's own resting orders, which the peer would expire. */
  refusedOverOwnOrders = 0;
  /** The market the last step changed or tried to (−1 for a cancel with nothing to cancel). */
  touched = -1;
  /** Ids (workload operations) of the resting orders the last taker's self-trade prevention expired. */
  lastStpExpired: readonly string[] = NONE_EXPIRED;

  /** `refusalRule: false` hands every taker to the peer as is (to show what the rule changes). */
  constructor(
    markets: number,
    private readonly refusalRule = true,
  ) {
    this.books = Array.from({ length: markets }, () => new OrderBook());
    this.resting = Array.from({ length: markets }, () => new Map());
  }

  /** Applies operation `i`; returns the lots a placed order traded at once (0 if refused), or −1 for a cancel. */
  step(w: Workload, i: number): number {
    this.touched = -1;
    this.lastStpExpired = NONE_EXPIRED;
    if (w.op[i] === OP_CANCEL) {
      if (this.ringLen > 0) {
        const k = w.pick[i]! % this.ringLen;
        this.touched = this.ringMarket[k]!;
        this.books[this.touched]!.cancel(this.ringId[k]!);
      }
      return -1;
    }
    const market = w.market[i]!;
    this.touched = market;
    const book = this.books[market]!;
    const first = w.token[i] === 0;
    const buysFirst = first === (w.side[i] === Side.BUY);
    const size = w.size[i]! / LOT;
    const price = first ? w.price[i]! : TICKS - w.price[i]!;
    const owner = w.owner[i]!;
    const orderType = w.orderType[i]!;
    if (this.refusalRule && (orderType === OrderType.FAK || orderType === OrderType.FOK)) {
      const { others, own } = this.crossing(market, owner, buysFirst, price);
      if (orderType === OrderType.FOK ? others < size : others === 0) {
        this.refused++;
        if (own > 0) this.refusedOverOwnOrders++;
        return 0;
      }
    }
    const id = String(i);
    const result = book.limit({
      id,
      side: buysFirst ? PeerSide.BUY : PeerSide.SELL,
      size,
      price,
      timeInForce: TIME_IN_FORCE[orderType] as never,
      accountId: String(owner),
      stpMode: SelfTradePreventionMode.EXPIRE_MAKER,
    });
    this.lastStpExpired = result.stpExpired?.map((order) => order.id) ?? NONE_EXPIRED;
    if (result.err !== null) return 0;
    if (orderType === OrderType.GTC && result.quantityLeft > 0) {
      this.ringId[this.ringPos] = id;
      this.ringMarket[this.ringPos] = market;
      this.ringPos = (this.ringPos + 1) & (RING - 1);
      if (this.ringLen < RING) this.ringLen++;
      const ids = this.resting[market]!.get(owner);
      if (ids === undefined) this.resting[market]!.set(owner, [id]);
      else ids.push(id);
    }
    return size - result.quantityLeft;
  }

  /** Levels best first in the first token's ticks, as pmx's `book(market, 0)` in lots. */
  depth(market: number): { bids: LotLevel[]; asks: LotLevel[] } {
    const [asks, bids] = this.books[market]!.depth();
    return { bids, asks };
  }

  /** Lots crossing a taker's limit on the other side: other owners' and the taker's own. */
  private crossing(market: number, owner: number, buysFirst: boolean, limit: number): { others: number; own: number } {
    const book = this.books[market]!;
    const [asks, bids] = book.depth();
    let total = 0;
    for (const [price, lots] of buysFirst ? asks : bids) {
      if (buysFirst ? price > limit : price < limit) break;
      total += lots;
    }
    let own = 0;
    const ids = this.resting[market]!.get(owner);
    if (ids !== undefined) {
      let kept = 0;
      for (const id of ids) {
        const order = book.order(id);
        if (order === undefined) continue;
        ids[kept++] = id;
        const crosses = buysFirst
          ? order.side === PeerSide.SELL && order.price <= limit
          : order.side === PeerSide.BUY && order.price >= limit;
        if (crosses) own += order.size;
      }
      ids.length = kept;
    }
    return { others: total - own, own };
  }
}

/** Plays the workload into fresh peer books (the timed peer run); returns them as they end. */
export function playPeer(w: Workload, markets: number): PeerBooks {
  const peer = new PeerBooks(markets);
  for (let i = 0; i < w.count; i++) peer.step(w, i);
  return peer;
}

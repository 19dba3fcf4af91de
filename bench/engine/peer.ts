// The engine bench's peer: the same workload played into `nodejs-order-book` (a public limit
// order book for Node), one book per market. The peer has one book of one instrument, so each
// order of the second token is mapped to its mirror on the first (a BUY of No at q is a SELL of
// Yes at 1 − q: docs/design/unified-book.md), and both engines see the same book. Self-trades
// expire the resting order in both (pmx cancels the resting one; the peer's EXPIRE_MAKER).

import { OrderBook, SelfTradePreventionMode, Side as PeerSide } from 'nodejs-order-book';
import { OrderType, Side } from '@pmx/matching';
import { LOT, OP_CANCEL, TICKS, type Workload } from './workload.ts';

const TIME_IN_FORCE: Record<number, 'GTC' | 'IOC' | 'FOK'> = {
  [OrderType.GTC]: 'GTC',
  [OrderType.FAK]: 'IOC',
  [OrderType.FOK]: 'FOK',
};

/**
 * Plays the workload into fresh peer books; with `filled`, records per operation the lots each
 * order traded at once (0 for a refusal; cancels untouched). Cancels pick from a ring of the
 * orders that rested, as the pmx run does, so equal books cancel the same orders.
 */
export function playPeer(w: Workload, markets: number, filled?: Float64Array): void {
  const books = Array.from({ length: markets }, () => new OrderBook());
  const ringId = new Array<string>(4096);
  const ringMarket = new Uint16Array(4096);
  let ringLen = 0;
  let ringPos = 0;
  for (let i = 0; i < w.count; i++) {
    if (w.op[i] === OP_CANCEL) {
      if (ringLen > 0) {
        const k = w.pick[i]! % ringLen;
        books[ringMarket[k]!]!.cancel(ringId[k]!);
      }
      continue;
    }
    const market = w.market[i]!;
    const first = w.token[i] === 0;
    const buysFirst = first === (w.side[i] === Side.BUY);
    const size = w.size[i]! / LOT;
    const id = String(i);
    const result = books[market]!.limit({
      id,
      side: buysFirst ? PeerSide.BUY : PeerSide.SELL,
      size,
      price: first ? w.price[i]! : TICKS - w.price[i]!,
      timeInForce: TIME_IN_FORCE[w.orderType[i]!] as never,
      accountId: String(w.owner[i]),
      stpMode: SelfTradePreventionMode.EXPIRE_MAKER,
    });
    const traded = result.err === null ? size - result.quantityLeft : 0;
    if (filled !== undefined) filled[i] = traded;
    if (result.err === null && w.orderType[i] === OrderType.GTC && result.quantityLeft > 0) {
      ringId[ringPos] = id;
      ringMarket[ringPos] = market;
      ringPos = (ringPos + 1) & 4095;
      if (ringLen < 4096) ringLen++;
    }
  }
}

// What a FOK or FAK could fill before it is matched (a refused one changes nothing). Since it can
// be sent again at will, the check must stay cheap against a deep book.
import type { OrderStore } from './order-store.ts';
import type { OwnerIndex } from './owner-index.ts';
import { ASK, CARRY, SPLIT, type PriceLevels } from './price-levels.ts';

const NONE = -1;
/** Crossed orders walked one by one before level depths are used instead. */
const CROSSED_ORDERS_WALKED = 256;
/** A taker with at most this many resting orders has them taken off level depths. */
const OWN_ORDERS_SUBTRACTED = 256;

/**
 * Base units a taker could fill, at least up to `wanted`, against side `opp` up to `limit`, less
 * its own orders there (which self-trade prevention would cancel, not fill). It walks the crossed
 * orders (usually a few settle it); past CROSSED_ORDERS_WALKED of them, a taker with few resting
 * orders is judged by the crossed levels' depths less its own crossing orders: the cost is then
 * the levels crossed plus its own orders, where walking every crossed order cost ≈ 3 ms against a
 * deep book.
 */
export function fillable(
  o: OrderStore,
  owners: OwnerIndex,
  levels: PriceLevels,
  market: number,
  opp: number,
  limit: number,
  owner: number,
  wanted: number,
): number {
  const first = opp === ASK ? levels.bestAsk : levels.bestBid;
  let total = 0;
  let walked = 0;
  for (
    let price = first;
    opp === ASK ? price <= limit : price >= limit && price !== 0;
    price = levels.nextLevel(opp, price)
  ) {
    for (let slot = levels.head[opp]![price]!; slot !== NONE; slot = o.next[slot]!) {
      if (o.owner[slot] !== owner) total += o.remaining[slot]!;
      if (total >= wanted) return total;
      if (++walked === CROSSED_ORDERS_WALKED && owners.count(owner) <= OWN_ORDERS_SUBTRACTED)
        return byDepth(o, owners, levels, market, opp, first, limit, owner, wanted);
    }
  }
  return total;
}

/**
 * Sums in the levels' two exact parts (high·SPLIT + low), so the answer is exact below 2^53 —
 * where it is compared with `wanted` — however deep the crossed levels and the taker's own orders.
 */
function byDepth(
  o: OrderStore,
  owners: OwnerIndex,
  levels: PriceLevels,
  market: number,
  opp: number,
  first: number,
  limit: number,
  owner: number,
  wanted: number,
): number {
  const crossing = (price: number) => (opp === ASK ? price <= limit : price >= limit && price !== 0);
  let high = 0;
  let low = 0;
  for (let slot = owners.first(owner); slot !== NONE; slot = o.ownerNext[slot]!) {
    if (o.market[slot] === market && o.bookSide[slot] === opp && crossing(o.price[slot]!)) {
      const remaining = o.remaining[slot]!;
      const part = Math.trunc(remaining / SPLIT);
      high -= part;
      low -= remaining - part * SPLIT;
    }
  }
  for (let price = first; crossing(price); price = levels.nextLevel(opp, price)) {
    high += levels.depthHigh[opp]![price]!;
    low += levels.depthLow[opp]![price]!;
    if (low >= CARRY || low <= -CARRY) {
      const carried = Math.trunc(low / SPLIT);
      high += carried;
      low -= carried * SPLIT;
    }
    if (high * SPLIT + low >= wanted) break;
  }
  return high * SPLIT + low;
}

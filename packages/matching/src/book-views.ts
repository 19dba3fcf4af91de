// Read-only views of one market's unified book in either token's terms: aggregated levels best
// first, best prices, spread and a stable hash of the level contents.

import { Fnv64 } from './hash.ts';
import { ASK, BID, type PriceLevels } from './price-levels.ts';
import type { BookView, Level, TokenIndex } from './types.ts';

function collect(levels: PriceLevels, side: number, mirror: boolean, depth: number): Level[] {
  const out: Level[] = [];
  const ticks = levels.ticks;
  let price = side === BID ? levels.bestBid : levels.bestAsk;
  const end = side === BID ? 0 : ticks;
  while (price !== end && out.length < depth) {
    out.push({ price: mirror ? ticks - price : price, size: levels.exactDepthOf(side, price) });
    price = levels.nextLevel(side, price);
  }
  return out;
}

/** Levels best first; for the second token the first token's asks become bids at 1 − p. */
export function bookView(levels: PriceLevels, token: TokenIndex, depth = Infinity): BookView {
  if (token === 0) return { bids: collect(levels, BID, false, depth), asks: collect(levels, ASK, false, depth) };
  return { bids: collect(levels, ASK, true, depth), asks: collect(levels, BID, true, depth) };
}

/** Best bid in the token's ticks, or null. */
export function bestBid(levels: PriceLevels, token: TokenIndex): number | null {
  if (token === 0) return levels.bestBid === 0 ? null : levels.bestBid;
  return levels.bestAsk === levels.ticks ? null : levels.ticks - levels.bestAsk;
}

/** Best ask in the token's ticks, or null. */
export function bestAsk(levels: PriceLevels, token: TokenIndex): number | null {
  if (token === 0) return levels.bestAsk === levels.ticks ? null : levels.bestAsk;
  return levels.bestBid === 0 ? null : levels.ticks - levels.bestBid;
}

/** Best ask − best bid in ticks (the same for both tokens), or null when a side is empty. */
export function spread(levels: PriceLevels): number | null {
  if (levels.bestBid === 0 || levels.bestAsk === levels.ticks) return null;
  return levels.bestAsk - levels.bestBid;
}

/**
 * Midpoint as bid + ask in ticks, i.e. in half-ticks, so it stays an integer; null when a side is
 * empty. The edge divides by 2 × ticks-per-unit when it formats the decimal.
 */
export function midpointHalfTicks(levels: PriceLevels, token: TokenIndex): number | null {
  const bid = bestBid(levels, token);
  const ask = bestAsk(levels, token);
  return bid === null || ask === null ? null : bid + ask;
}

/** Hash of the aggregated levels (first token's terms); equal books hash equally. */
export function bookHash(levels: PriceLevels): string {
  const hash = new Fnv64();
  for (const side of [BID, ASK]) {
    hash.addNumber(side);
    for (const level of collect(levels, side, false, Infinity)) hash.addNumber(level.price).addInteger(level.size);
  }
  return hash.hex();
}

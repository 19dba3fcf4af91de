// Feeds engine events into the risk book: each party of a fill pays from its reservation and
// receives the other asset at its own token's trade price; mints lock and merges release pairs;
// cancels and expiries release what an order still has reserved.

import { MatchKind, Side, type EngineEvent, type TradeEvent, type TokenIndex } from '@pmx/matching';
import { collateralFor } from './order-cost.ts';
import { COLLATERAL, type RiskBook, type RiskMarket } from './risk-book.ts';

/** An order as settlement needs it: its external id and its owner's address. */
export interface OrderParty {
  orderId: string;
  address: string;
}

function settleParty(book: RiskBook, market: RiskMarket, party: OrderParty, side: Side, token: TokenIndex, size: number, price: number): void {
  const cash = collateralFor(size, price, market.ticksPerUnit);
  if (side === Side.BUY) {
    book.spend(party.orderId, cash, size);
    book.receive(party.address, market.tokens[token], size);
  } else {
    book.spend(party.orderId, size, size);
    book.receive(party.address, COLLATERAL, cash);
  }
}

/**
 * Applies every fill of a trade. `party(engineOrderId)` maps the engine's order ids to the
 * external order ids and owners the reservations were made under.
 */
export function settleTrade(book: RiskBook, market: RiskMarket, trade: TradeEvent, party: (engineOrderId: number) => OrderParty): void {
  const taker = party(trade.takerOrderId);
  for (const fill of trade.fills) {
    settleParty(book, market, taker, trade.takerSide, trade.takerToken, fill.size, fill.takerPrice);
    settleParty(book, market, party(fill.makerOrderId), fill.makerSide, fill.makerToken, fill.size, fill.makerPrice);
    if (fill.kind === MatchKind.MINT) book.lockPairs(market.key, fill.size);
    else if (fill.kind === MatchKind.MERGE) book.releasePairs(market.key, fill.size);
  }
}

/** Applies one engine event of a market; accepted orders were reserved before they were placed. */
export function applyEngineEvent(book: RiskBook, market: RiskMarket, event: EngineEvent, party: (engineOrderId: number) => OrderParty): void {
  if (event.type === 'trade') settleTrade(book, market, event, party);
  else if (event.type === 'cancelled' || event.type === 'expired') book.release(party(event.orderId).orderId);
}

// Feeds trade and custody events into the risk book: each party of a fill pays from its
// reservation and receives the other asset at its own token's trade price; mints lock and merges
// release pairs; a custody movement pays from its hold (split, merge, redeem).
// Works on the engine's events (numeric ids) and on a shard's translated events (order hashes
// and addresses) alike: the caller says how an (order id, owner) pair maps to a reservation.

import { MatchKind, Side, type MatchKind as Kind, type TokenIndex } from '@pmx/matching';
import { collateralFor } from './order-cost.ts';
import { COLLATERAL, type RiskBook, type RiskMarket } from './risk-book.ts';

/** An order as settlement needs it: the id its reservation was made under and its owner's address. */
export interface OrderParty {
  orderId: string;
  address: string;
}

export interface FillLike<Id, Owner> {
  makerOrderId: Id;
  makerOwner: Owner;
  makerToken: TokenIndex;
  makerSide: Side;
  size: number;
  makerPrice: number;
  takerPrice: number;
  kind: Kind;
}

export interface TradeLike<Id, Owner> {
  takerOrderId: Id;
  takerOwner: Owner;
  takerToken: TokenIndex;
  takerSide: Side;
  fills: readonly FillLike<Id, Owner>[];
}

function settleParty(
  book: RiskBook,
  market: RiskMarket,
  party: OrderParty,
  side: Side,
  token: TokenIndex,
  size: number,
  price: number,
): void {
  const cash = collateralFor(size, price, market.ticksPerUnit);
  if (side === Side.BUY) {
    book.spend(party.orderId, cash, size);
    book.receive(party.address, market.tokens[token], size);
  } else {
    book.spend(party.orderId, size, size);
    book.receive(party.address, COLLATERAL, cash);
  }
}

/** Applies every fill of a trade to both parties' balances and the market's locked collateral. */
export function settleTrade<Id, Owner>(
  book: RiskBook,
  market: RiskMarket,
  trade: TradeLike<Id, Owner>,
  party: (orderId: Id, owner: Owner) => OrderParty,
): void {
  const taker = party(trade.takerOrderId, trade.takerOwner);
  for (const fill of trade.fills) {
    settleParty(book, market, taker, trade.takerSide, trade.takerToken, fill.size, fill.takerPrice);
    settleParty(
      book,
      market,
      party(fill.makerOrderId, fill.makerOwner),
      fill.makerSide,
      fill.makerToken,
      fill.size,
      fill.makerPrice,
    );
    if (fill.kind === MatchKind.MINT) book.lockPairs(market.key, fill.size);
    else if (fill.kind === MatchKind.MERGE) book.releasePairs(market.key, fill.size);
  }
}

/** A custody movement as settlement needs it (a shard's `custody` event). */
export interface CustodyLike {
  id: string;
  op: 'split' | 'merge' | 'redeem';
  owner: string;
  tokens: readonly [number, number];
  collateral: number;
}

/** Applies a custody movement whose amounts `holdCustody` held under its id. */
export function settleCustody(book: RiskBook, market: RiskMarket, movement: CustodyLike): void {
  const { id, owner, tokens, collateral } = movement;
  if (movement.op === 'split') {
    book.spendHold(id, COLLATERAL, collateral);
    market.tokens.forEach((token, i) => book.receive(owner, token, tokens[i]!));
    book.lockPairs(market.key, tokens[0]);
  } else {
    market.tokens.forEach((token, i) => book.spendHold(id, token, tokens[i]!));
    book.receive(owner, COLLATERAL, collateral);
    if (movement.op === 'merge') book.releasePairs(market.key, tokens[0]);
    else book.redeemed(market.key, tokens, collateral);
  }
  book.releaseCustody(id);
}

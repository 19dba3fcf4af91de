// Plain-data vocabulary of the engine: sides, order types, commands, events and results.
// Everything here is serialisable, so commands and events can be journaled and replayed.

/** An order's own side, in its own token's terms (wire: BUY = 0, SELL = 1, as in the signed order). */
export const Side = { BUY: 0, SELL: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Which of a market's two outcome tokens an order trades. */
export type TokenIndex = 0 | 1;

export const OrderType = { GTC: 0, GTD: 1, FOK: 2, FAK: 3 } as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

/** How a fill moves tokens: a plain transfer, two BUYs minting a pair, or two SELLs merging one. */
export const MatchKind = { TRANSFER: 0, MINT: 1, MERGE: 2 } as const;
export type MatchKind = (typeof MatchKind)[keyof typeof MatchKind];

/** Sizes are base units (6 decimals); every size is a whole number of lots of 0.01 token. */
export const BASE_UNITS_PER_TOKEN = 1_000_000;
export const LOT = 10_000;
/** Largest order size accepted: 10^9 tokens (10^15 base units; collateralFor divides before it multiplies). */
export const MAX_SIZE = 1_000_000_000 * BASE_UNITS_PER_TOKEN;

/** The tick sizes a market may use, and how many ticks make one unit of collateral. */
export const TICK_SIZES = ['0.1', '0.01', '0.005', '0.001', '0.0025', '0.0001'] as const;
export type TickSize = (typeof TICK_SIZES)[number];
export const TICKS_PER_UNIT: Record<TickSize, number> = {
  '0.1': 10,
  '0.01': 100,
  '0.005': 200,
  '0.001': 1000,
  '0.0025': 400,
  '0.0001': 10000,
};

export interface MarketSpec {
  /** Caller's name for the market (the condition id). */
  key: string;
  tickSize: TickSize;
  /** Smallest order size in base units. */
  minSize: number;
}

export interface PlaceOrder {
  market: number;
  token: TokenIndex;
  side: Side;
  orderType: OrderType;
  /** Limit price in ticks of the order's own token (1 … ticksPerUnit − 1). */
  price: number;
  /** Size in base units of the token. */
  size: number;
  owner: number;
  postOnly?: boolean;
  /** GTD only: the order expires once `now` reaches this time (same clock as `now`). */
  expiresAt?: number;
}

export type Command =
  | { type: 'addMarket'; spec: MarketSpec }
  | ({ type: 'place'; now: number } & PlaceOrder)
  | { type: 'cancel'; orderId: number; now: number; reason?: CancelReason }
  | { type: 'cancelOwner'; owner: number; market?: number; now: number }
  | { type: 'expire'; now: number };

export type RejectReason =
  | 'unknown-market'
  | 'invalid-token'
  | 'invalid-side'
  | 'invalid-price'
  | 'invalid-size'
  | 'size-below-minimum'
  | 'invalid-order-type'
  | 'invalid-expiration'
  | 'post-only-type'
  | 'post-only-crosses'
  | 'fok-not-filled'
  | 'fak-no-match';

export type OrderStatus = 'live' | 'matched' | 'unmatched';

export type PlaceResult =
  | {
      ok: true;
      orderId: number;
      status: OrderStatus;
      /** Base units of the order's token that traded at once. */
      filled: number;
      /** Base units left resting on the book (0 unless status is live). */
      resting: number;
    }
  | { ok: false; reason: RejectReason };

export type CancelResult = { ok: true; remaining: number } | { ok: false; reason: 'not-found' };

/**
 * Why an order left the book unfilled: its owner cancelled it, it would have traded with its
 * owner's own taker, it was an FAK/FOK remainder, the exchange cancelled it because the owner's
 * balance no longer covered it (found at recovery), or its market closed.
 */
export type CancelReason = 'user' | 'self-trade' | 'unfilled' | 'uncovered' | 'key-deleted' | 'market-closed';

export interface AcceptedEvent {
  type: 'accepted';
  seq: number;
  at: number;
  orderId: number;
  market: number;
  token: TokenIndex;
  side: Side;
  orderType: OrderType;
  price: number;
  size: number;
  owner: number;
  postOnly: boolean;
  expiresAt: number;
}

export interface Fill {
  makerOrderId: number;
  makerOwner: number;
  makerToken: TokenIndex;
  makerSide: Side;
  size: number;
  /** The trade price in ticks of the maker's token (the maker's limit). */
  makerPrice: number;
  /** The same trade price in ticks of the taker's token. */
  takerPrice: number;
  kind: MatchKind;
}

export interface TradeEvent {
  type: 'trade';
  seq: number;
  at: number;
  market: number;
  takerOrderId: number;
  takerOwner: number;
  takerToken: TokenIndex;
  takerSide: Side;
  /** Total base units the taker traded across all fills. */
  size: number;
  fills: Fill[];
}

export interface CancelledEvent {
  type: 'cancelled';
  seq: number;
  at: number;
  orderId: number;
  market: number;
  owner: number;
  /** Base units that were still open and are now released. */
  remaining: number;
  reason: CancelReason;
}

export interface ExpiredEvent {
  type: 'expired';
  seq: number;
  at: number;
  orderId: number;
  market: number;
  owner: number;
  remaining: number;
}

export type EngineEvent = AcceptedEvent | TradeEvent | CancelledEvent | ExpiredEvent;

/** One aggregated price level, in ticks of the token the view is for. */
export interface Level {
  price: number;
  /** Base units; a bigint only past 2^53 − 1 (a level of many large orders at a low price). */
  size: number | bigint;
}

export interface BookView {
  bids: Level[];
  asks: Level[];
}

// What the front end and a shard worker say to each other, and the one event stream of pmx:
// batches of plain-data commands in; results, events (with external order ids, addresses and
// market keys) and book levels out. The same events are what each shard appends to its BullMQ
// queue, which the ledger, history and WebSocket read.

import { createHash } from 'node:crypto';
import type {
  CancelReason,
  MatchKind,
  OrderStatus,
  OrderType,
  RejectReason,
  Side,
  TickSize,
  TokenIndex,
} from '@pmx/matching';

export interface ShardMarket {
  key: string;
  tokens: [string, string];
  tickSize: TickSize;
  minSize: number;
  /** Where the market is in its life (default open); recovery's `restore` sets the ledger's. */
  state?: MarketState;
  payouts?: Payouts | null;
}

/** A market's life (lifecycle.ts has the transitions). */
export type MarketState = 'open' | 'paused' | 'closed' | 'resolved';

/** An operator's step in a market's life. */
export type LifecycleStep = 'pause' | 'resume' | 'close' | 'resolve';

/** Collateral base units paid per whole token (10^6 base units) of token0 and token1 once resolved. */
export type Payouts = [number, number];

/**
 * A user's custody movement: split (collateral into a pair of tokens), merge (a pair back into
 * collateral), redeem (tokens of a resolved market into their payout).
 */
export type CustodyOp = 'split' | 'merge' | 'redeem';

/** Why a place was refused by the shard itself, beside the engine's reasons. */
export type ShardRefusal = RejectReason | 'duplicate' | 'market-paused' | 'market-closed';

export type ShardCommand =
  | { type: 'market'; market: ShardMarket }
  | {
      type: 'place';
      orderId: string;
      owner: string;
      /** The API key that placed it (the order envelope's `owner`). */
      ownerKey: string;
      /** The signed order's builder (bytes32 hex). */
      builder: string;
      /** The signed order's own timestamp in ms; 0 when it is not a safe integer. */
      signedAt: number;
      market: string;
      token: TokenIndex;
      side: Side;
      orderType: OrderType;
      price: number;
      size: number;
      postOnly: boolean;
      expiresAt: number;
    }
  | { type: 'cancel'; orderId: string; owner: string; reason?: 'user' | 'uncovered' | 'key-deleted' }
  | {
      /** Rebuilds the shard's books after a restart: its open orders in original sequence. */
      type: 'restore';
      /** The last event sequence number the ledger applied; numbering goes on from it. */
      seq: number;
      orders: RestoredOrder[];
      /** Last trade price per market, first token's ticks. */
      lastTrades: { market: string; ticks: number }[];
      /** Each market's state as the ledger has it (markets not named stay as they are). */
      markets?: { market: string; state: MarketState; payouts: Payouts | null }[];
    }
  | { type: 'cancelOwner'; owner: string; market?: string }
  | { type: 'expire' }
  | { type: 'status' }
  /** An operator's step; resolving an open or paused market closes it first. */
  | { type: 'lifecycle'; market: string; step: LifecycleStep; payouts?: Payouts }
  | {
      /**
       * A custody movement of `owner`, whose amounts the front end has already held (reserved):
       * split and merge move `tokens[0]` (= `tokens[1]`) pairs; redeem burns both amounts.
       */
      type: 'custody';
      id: string;
      op: CustodyOp;
      market: string;
      owner: string;
      tokens: [number, number];
    };

/** An open order as the ledger holds it, for `restore`; prices in the order's own token's ticks. */
export interface RestoredOrder {
  orderId: string;
  owner: string;
  market: string;
  token: TokenIndex;
  side: Side;
  orderType: OrderType;
  price: number;
  size: number;
  remaining: number;
  expiresAt: number;
  acceptedAt: number;
}

export type ShardResult =
  | { type: 'market'; ok: true }
  | {
      type: 'place';
      ok: true;
      status: OrderStatus;
      /** Base units of the order's token traded at once. */
      filled: number;
      /** Base units of collateral that changed hands for those fills, at the taker's prices. */
      notional: number;
      resting: number;
      tradeIds: string[];
    }
  | { type: 'place'; ok: false; reason: ShardRefusal }
  | { type: 'cancel'; ok: boolean; remaining: number }
  | { type: 'cancelOwner'; cancelled: string[] }
  | { type: 'expire'; expired: number }
  | { type: 'restore'; orders: number; stateHash: string }
  /** `cancelled`: resting orders a close took off the book. */
  | { type: 'lifecycle'; ok: true; state: MarketState; cancelled: number }
  /** Refused: the step does not apply to a market in `state` ('unknown': not on this shard). */
  | { type: 'lifecycle'; ok: false; state: MarketState | 'unknown' }
  /** `collateral`: paid in (split) or out (merge, redeem). */
  | { type: 'custody'; ok: true; collateral: number }
  | { type: 'custody'; ok: false; state: MarketState | 'unknown' }
  | {
      type: 'status';
      seq: number;
      openOrders: number;
      /** Hash of every book in priority order by external id, owner and remaining: equal across a restore. */
      stateHash: string;
    }
  /**
   * The command threw. `partial`: the engine had already emitted events for it (they are in the
   * reply and the queue), so the engine acted on a command whose outcome nobody was told: the front
   * end must stop following this shard (ShardSet's onFault). A place that throws after the engine
   * emitted its events fails the whole batch instead (its events cannot be translated without the
   * id mapping made after the place returns), which halts trading the same way.
   */
  | { type: 'error'; message: string; partial?: true };

export interface ShardFill {
  makerOrderId: string;
  makerOwner: string;
  makerToken: TokenIndex;
  makerSide: Side;
  size: number;
  makerPrice: number;
  takerPrice: number;
  kind: MatchKind;
}

export type ShardEvent =
  | {
      type: 'accepted';
      seq: number;
      at: number;
      orderId: string;
      market: string;
      token: TokenIndex;
      side: Side;
      orderType: OrderType;
      price: number;
      size: number;
      owner: string;
      ownerKey: string;
      builder: string;
      /** The signed order's timestamp in ms (0: not a safe integer), for the replay window. */
      signedAt: number;
      postOnly: boolean;
      expiresAt: number;
    }
  | {
      type: 'trade';
      seq: number;
      at: number;
      tradeId: string;
      market: string;
      takerOrderId: string;
      takerOwner: string;
      takerToken: TokenIndex;
      takerSide: Side;
      size: number;
      fills: ShardFill[];
    }
  | {
      type: 'cancelled';
      seq: number;
      at: number;
      orderId: string;
      market: string;
      owner: string;
      remaining: number;
      reason: CancelReason;
    }
  | { type: 'expired'; seq: number; at: number; orderId: string; market: string; owner: string; remaining: number }
  /** The market entered `state` (a resolution carries its payouts). */
  | { type: 'lifecycle'; seq: number; at: number; market: string; state: MarketState; payouts: Payouts | null }
  | {
      /**
       * `owner`'s custody movement: split pays `collateral` for `tokens` of each token; merge and
       * redeem burn `tokens` and pay `collateral` back (a redemption at the market's payouts).
       */
      type: 'custody';
      seq: number;
      at: number;
      id: string;
      market: string;
      owner: string;
      op: CustodyOp;
      tokens: [number, number];
      collateral: number;
      /** A redemption's terms: the market's payouts (null for a split or a merge). */
      payouts: Payouts | null;
    };

/** A market's aggregated levels in the first token's ticks, best first, after a batch touched it. */
export interface BookLevels {
  market: string;
  /** Sizes in base units; a bigint only past 2^53 − 1 (matching's Level). */
  bids: [price: number, size: number | bigint][];
  asks: [price: number, size: number | bigint][];
  /** First token's ticks; 0 before the first trade. */
  lastTrade: number;
}

export interface ShardBatch {
  now: number;
  commands: ShardCommand[];
}

export interface ShardReply {
  results: ShardResult[];
  events: ShardEvent[];
  books: BookLevels[];
  /** Highest event sequence number of this shard so far. */
  seq: number;
  /**
   * Set when the shard found its queue lost what it had stored (Redis data lost: its job counter
   * went back). The reply's own events are stored; the front end must stop trading.
   */
  fault?: string;
}

/** The job a shard appends to its queue for each batch that produced events. */
export interface ShardJob {
  shard: number;
  fromSeq: number;
  toSeq: number;
  events: ShardEvent[];
}

export const SHARD_JOB_NAME = 'events';

export function shardQueueName(shard: number): string {
  return `shard-${shard}`;
}

/**
 * A trade's transaction hash: off-chain there is no chain transaction, so it is a deterministic
 * id of the trade, non-empty as the official client expects (it polls trades until one appears).
 */
export function transactionHash(tradeId: string): string {
  return `0x${createHash('sha256').update(`pmx-trade:${tradeId}`).digest('hex')}`;
}

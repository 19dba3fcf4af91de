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
}

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
    }
  | { type: 'cancelOwner'; owner: string; market?: string }
  | { type: 'expire' }
  | { type: 'status' };

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
  | { type: 'place'; ok: false; reason: RejectReason | 'duplicate' }
  | { type: 'cancel'; ok: boolean; remaining: number }
  | { type: 'cancelOwner'; cancelled: string[] }
  | { type: 'expire'; expired: number }
  | { type: 'restore'; orders: number; stateHash: string }
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
  | { type: 'expired'; seq: number; at: number; orderId: string; market: string; owner: string; remaining: number };

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

// What a gateway and the core say to each other (docs/design/cluster.md): verified commands in,
// one reply per command (a result code), and what the core publishes to every gateway — book
// levels with the events that moved them, new markets, its readiness, keys closed and proxy
// wallets changed. Plain data, the same in one process (local-link.ts) and over the WebSocket
// (gateway/core-client.ts ↔ core/core-server.ts).

import type { OrderStatus } from '@pmx/matching';
import type { Balance } from '@pmx/risk';
import type { BookLevels, CustodyOp, ShardCommand, ShardEvent } from '@pmx/events';
import type { MarketRecord } from '../markets/market-registry.ts';
import type { ClosedStatus, OpenOrder } from '../orders/open-orders.ts';
import type { Refusal, ResultCode } from './result-codes.ts';

/**
 * An order whose signature, signer and terms the gateway has checked (gateway/verify-order.ts):
 * the shard's place command (terms in ticks and base units, GTD expiry in ms, signed timestamp),
 * with who places it instead of the shard's owner names.
 */
export type VerifiedOrder = Omit<Extract<ShardCommand, { type: 'place' }>, 'type' | 'owner' | 'ownerKey'> & {
  /** The API key placing it (the envelope's `owner`). */
  apiKey: string;
  /** Lower-case maker (whose balance backs it) and signer. */
  maker: string;
  signer: string;
  signatureType: number;
  assetId: string;
};

export type CoreCommand =
  | { type: 'place'; order: VerifiedOrder }
  | { type: 'cancel'; apiKey: string; orderIds: string[] }
  | { type: 'cancelAll'; apiKey: string; market?: string; assetId?: string }
  | { type: 'openOrders'; apiKey: string }
  | { type: 'order'; apiKey: string; orderId: string }
  | { type: 'balance'; address: string; asset: string }
  | { type: 'heartbeat'; apiKey: string; heartbeatId: string }
  /** A key being deleted: refuse its orders from now on and cancel every open one. */
  | { type: 'closeKey'; apiKey: string }
  /** Its deletion failed: the key works again. */
  | { type: 'reopenKey'; apiKey: string }
  /** Its row is gone: every gateway forgets it. */
  | { type: 'keyDeleted'; apiKey: string }
  /** A user's split, merge or redeem (`amount` ignored by redeem, which takes every token held). */
  | { type: 'custody'; op: CustodyOp; address: string; market: string; amount: number };

export interface PlaceAnswer {
  code: typeof ResultCode.OK;
  status: OrderStatus;
  /** Base units of the order's token traded at once, and of collateral for them. */
  filled: number;
  notional: number;
  tradeIds: string[];
}

export interface CancelAnswer {
  code: typeof ResultCode.OK;
  canceled: string[];
  notCanceled: Record<string, Refusal>;
}

export type CoreReply =
  | Refusal
  | PlaceAnswer
  | CancelAnswer
  | { code: typeof ResultCode.OK; orders: OpenOrder[] }
  | { code: typeof ResultCode.OK; order: (OpenOrder & { status: 'LIVE' | ClosedStatus }) | null }
  | { code: typeof ResultCode.OK; balance: Balance }
  | { code: typeof ResultCode.OK; heartbeatId: string }
  | { code: typeof ResultCode.OK; left: number }
  | CustodyAnswer
  | { code: typeof ResultCode.OK };

/** What a custody movement moved, and the holder's balances right after it. */
export interface CustodyAnswer {
  code: typeof ResultCode.OK;
  /** Collateral paid in (split) or out (merge, redeem), and of each token received or burnt, base units. */
  collateral: number;
  tokens: [number, number];
  balances: Record<string, Balance>;
}

/** Which shards trade, or why none does. */
export interface CoreStatus {
  shards: number;
  ready: number[];
  halted?: string;
}

/** A trade the core matched, with the API keys of its orders (for GET /data/trades before ingest). */
export interface MatchedTrade {
  event: Extract<ShardEvent, { type: 'trade' }>;
  takerKey: string;
  makerKeys: string[];
  shard: number;
}

export type Publication =
  /** A batch's effect: the levels of every book it touched and the trades it matched. */
  | { type: 'books'; at: number; books: BookLevels[]; trades: MatchedTrade[] }
  /** A market created, or one whose state a lifecycle step changed. */
  | { type: 'market'; market: MarketRecord }
  | { type: 'status'; status: CoreStatus }
  | { type: 'keyDeleted'; apiKey: string }
  | { type: 'proxiesChanged' };

/** What a gateway is sent first: the whole read model, then publications as they come. */
export interface CoreSnapshot {
  status: CoreStatus;
  markets: MarketRecord[];
  books: BookLevels[];
}

/** How a gateway reaches the core: in one process, or over the WebSocket. */
export interface CoreLink {
  execute(command: CoreCommand): Promise<CoreReply>;
}

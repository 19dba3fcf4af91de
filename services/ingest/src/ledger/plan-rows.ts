// The rows one shard batch writes, as planned from its events (batch-plan.ts) and written
// set-based (ledger-sql.ts): plain data, amounts in base units.

import type { TokenIndex } from '@pmx/matching';
import type { MarketState, Payouts } from '@pmx/events';
import type { Cause, KindName, SideName } from './names.ts';
import type { TokenMovement } from './positions.ts';

export type OrderStatus = 'live' | 'matched' | 'cancelled' | 'expired' | 'unmatched';

export interface NewOrderRow {
  orderId: string;
  market: string;
  token: TokenIndex;
  assetId: string;
  side: SideName;
  orderType: string;
  priceTicks: number;
  price: string;
  size: number;
  matched: number;
  status: OrderStatus;
  closeReason: string | null;
  owner: string;
  ownerKey: string | null;
  builder: string | null;
  /** The signed order's timestamp in ms, null when unknown. */
  signedAt: number | null;
  postOnly: boolean;
  /** ms, 0 when the order has no expiry. */
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
  acceptedSeq: number;
}

/** A change to an order accepted in an earlier batch. */
export interface OrderUpdate {
  orderId: string;
  matchedDelta: number;
  /** Set when the order closed in this batch; a fill that completes it is decided in SQL. */
  status: OrderStatus | null;
  closeReason: string | null;
  updatedAt: number;
}

export interface TradeRow {
  tradeId: string;
  seq: number;
  market: string;
  takerToken: TokenIndex;
  assetId: string;
  takerOrderId: string;
  takerAddress: string;
  side: SideName;
  size: number;
  notional: number;
  price: string;
  priceTicks: number;
  matchTime: number;
  transactionHash: string;
  feeRateBps: number;
}

export interface FillRow {
  tradeId: string;
  idx: number;
  /** Its trade's sequence and time: a maker's trades are paged in that order. */
  seq: number;
  matchTime: number;
  makerOrderId: string;
  makerAddress: string;
  makerToken: TokenIndex;
  makerAssetId: string;
  makerSide: SideName;
  size: number;
  makerPriceTicks: number;
  makerPrice: string;
  takerPriceTicks: number;
  kind: KindName;
  feeRateBps: number;
}

export interface LedgerEntryRow {
  address: string;
  asset: string;
  delta: bigint;
  cause: Cause;
  /** The trade that moved it; null for a custody movement. */
  tradeId: string | null;
  seq: number;
  at: number;
}

export interface BalanceDelta {
  address: string;
  asset: string;
  delta: bigint;
}

/** Pairs minted (mint trades, splits) and merged (merge trades, merges); what redemptions paid and burnt. */
export interface CollateralChange {
  market: string;
  minted: bigint;
  merged: bigint;
  paidOut: bigint;
  burnt: [bigint, bigint];
}

/** A market's lifecycle steps in a batch, folded: its last state, and when it closed or resolved. */
export interface MarketStateChange {
  market: string;
  state: MarketState;
  payouts: Payouts | null;
  /** ms, when this batch closed or resolved it. */
  closedAt: number | null;
  resolvedAt: number | null;
}

export interface BatchPlan {
  newOrders: NewOrderRow[];
  orderUpdates: OrderUpdate[];
  trades: TradeRow[];
  fills: FillRow[];
  entries: LedgerEntryRow[];
  /** Sorted by address then asset, so concurrent shards lock balance rows in one order. */
  balanceDeltas: BalanceDelta[];
  /** In event order: positions are path-dependent. */
  movements: TokenMovement[];
  collateral: CollateralChange[];
  marketStates: MarketStateChange[];
}

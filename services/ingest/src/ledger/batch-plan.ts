// Turns one shard batch's events into the rows one transaction writes: new orders (already
// folded to their end-of-batch state), updates of older orders, trades, maker fills, ledger
// entries, net balance changes, token movements for positions, and collateral locked per market.
// Pure: no I/O, so the SQL side is a handful of set-based statements over these arrays.

import { averagePrice, formatPrice } from '@pmx/codec';
import { MatchKind, Side, type TokenIndex } from '@pmx/matching';
import { collateralFor } from '@pmx/risk';
import { transactionHash, type ShardEvent } from '@pmx/events';
import type { LedgerMarket } from './market-directory.ts';
import { causeOfKind, kindName, orderTypeName, sideName, type Cause, type KindName, type SideName } from './names.ts';
import type { TokenMovement } from './positions.ts';

export const COLLATERAL = 'collateral';

type TradeEvent = Extract<ShardEvent, { type: 'trade' }>;

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
  tradeId: string;
  seq: number;
  at: number;
}

export interface BalanceDelta {
  address: string;
  asset: string;
  delta: bigint;
}

export interface CollateralChange {
  market: string;
  minted: bigint;
  merged: bigint;
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
}

/** The signed order's builder, or null when it carried none (empty or all zeros). */
export function builderOf(builder: string): string | null {
  return /^(0x)?0*$/i.test(builder) ? null : builder.toLowerCase();
}

class PlanBuilder {
  private readonly newOrders = new Map<string, NewOrderRow>();
  private readonly updates = new Map<string, OrderUpdate>();
  private readonly trades: TradeRow[] = [];
  private readonly fills: FillRow[] = [];
  private readonly entries: LedgerEntryRow[] = [];
  private readonly balances = new Map<string, BalanceDelta>();
  private readonly movements: TokenMovement[] = [];
  private readonly collateral = new Map<string, CollateralChange>();

  constructor(private readonly market: (conditionId: string) => LedgerMarket) {}

  add(event: ShardEvent): void {
    switch (event.type) {
      case 'accepted': {
        const market = this.market(event.market);
        this.newOrders.set(event.orderId, {
          orderId: event.orderId,
          market: event.market,
          token: event.token,
          assetId: market.tokens[event.token],
          side: sideName(event.side),
          orderType: orderTypeName(event.orderType),
          priceTicks: event.price,
          price: formatPrice(event.price, market.ticksPerUnit),
          size: event.size,
          matched: 0,
          status: 'live',
          closeReason: null,
          owner: event.owner,
          ownerKey: event.ownerKey === '' ? null : event.ownerKey,
          builder: builderOf(event.builder),
          signedAt: event.signedAt > 0 ? event.signedAt : null,
          postOnly: event.postOnly,
          expiresAt: event.expiresAt,
          createdAt: event.at,
          updatedAt: event.at,
          acceptedSeq: event.seq,
        });
        return;
      }
      case 'trade':
        this.addTrade(event);
        return;
      case 'cancelled':
        this.close(event.orderId, event.reason === 'unfilled' ? 'unmatched' : 'cancelled', event.reason, event.at);
        return;
      case 'expired':
        this.close(event.orderId, 'expired', 'expired', event.at);
        return;
    }
  }

  private update(orderId: string, at: number): OrderUpdate {
    let update = this.updates.get(orderId);
    if (update === undefined) {
      update = { orderId, matchedDelta: 0, status: null, closeReason: null, updatedAt: at };
      this.updates.set(orderId, update);
    }
    update.updatedAt = at;
    return update;
  }

  private fillOrder(orderId: string, size: number, at: number): void {
    const order = this.newOrders.get(orderId);
    if (order === undefined) {
      this.update(orderId, at).matchedDelta += size;
      return;
    }
    order.matched += size;
    order.updatedAt = at;
    if (order.matched > order.size) throw new Error(`order ${orderId} filled past its size`);
    if (order.matched === order.size) order.status = 'matched';
  }

  private close(orderId: string, status: OrderStatus, reason: string, at: number): void {
    const order = this.newOrders.get(orderId);
    if (order !== undefined) {
      order.status = status;
      order.closeReason = reason;
      order.updatedAt = at;
      return;
    }
    const update = this.update(orderId, at);
    update.status = status;
    update.closeReason = reason;
  }

  private addTrade(event: TradeEvent): void {
    const market = this.market(event.market);
    const n = market.ticksPerUnit;
    const entries = new Map<string, LedgerEntryRow>();
    const move = (address: string, asset: string, delta: number, cause: Cause): void => {
      const key = `${address}\u0000${asset}\u0000${cause}`;
      const entry = entries.get(key);
      if (entry === undefined)
        entries.set(key, {
          address,
          asset,
          delta: BigInt(delta),
          cause,
          tradeId: event.tradeId,
          seq: event.seq,
          at: event.at,
        });
      else entry.delta += BigInt(delta);
    };
    const settle = (
      address: string,
      side: Side,
      token: TokenIndex,
      size: number,
      price: number,
      kind: MatchKind,
    ): void => {
      const cash = collateralFor(size, price, n);
      const asset = market.tokens[token];
      const cause = causeOfKind(kind);
      const bought = side === Side.BUY;
      move(address, COLLATERAL, bought ? -cash : cash, cause);
      move(address, asset, bought ? size : -size, cause);
      this.movements.push({ address, asset, market: market.conditionId, token, bought, size, cash });
    };

    let notional = 0;
    event.fills.forEach((fill, idx) => {
      notional += collateralFor(fill.size, fill.takerPrice, n);
      settle(event.takerOwner, event.takerSide, event.takerToken, fill.size, fill.takerPrice, fill.kind);
      settle(fill.makerOwner, fill.makerSide, fill.makerToken, fill.size, fill.makerPrice, fill.kind);
      this.fillOrder(fill.makerOrderId, fill.size, event.at);
      this.fills.push({
        tradeId: event.tradeId,
        idx,
        seq: event.seq,
        matchTime: event.at,
        makerOrderId: fill.makerOrderId,
        makerAddress: fill.makerOwner,
        makerToken: fill.makerToken,
        makerAssetId: market.tokens[fill.makerToken],
        makerSide: sideName(fill.makerSide),
        size: fill.size,
        makerPriceTicks: fill.makerPrice,
        makerPrice: formatPrice(fill.makerPrice, n),
        takerPriceTicks: fill.takerPrice,
        kind: kindName(fill.kind),
        feeRateBps: market.makerFeeBps,
      });
      if (fill.kind !== MatchKind.TRANSFER) this.lockChange(market.conditionId, fill.kind, fill.size);
    });
    this.fillOrder(event.takerOrderId, event.size, event.at);

    const last = event.fills[event.fills.length - 1];
    if (last === undefined) throw new Error(`trade ${event.tradeId} has no fills`);
    this.trades.push({
      tradeId: event.tradeId,
      seq: event.seq,
      market: event.market,
      takerToken: event.takerToken,
      assetId: market.tokens[event.takerToken],
      takerOrderId: event.takerOrderId,
      takerAddress: event.takerOwner,
      side: sideName(event.takerSide),
      size: event.size,
      notional,
      price: averagePrice(notional, event.size),
      priceTicks: last.takerPrice,
      matchTime: event.at,
      transactionHash: transactionHash(event.tradeId),
      feeRateBps: market.takerFeeBps,
    });
    for (const entry of entries.values()) {
      if (entry.delta === 0n) continue;
      this.entries.push(entry);
      const key = `${entry.address}\u0000${entry.asset}`;
      const balance = this.balances.get(key);
      if (balance === undefined)
        this.balances.set(key, { address: entry.address, asset: entry.asset, delta: entry.delta });
      else balance.delta += entry.delta;
    }
  }

  private lockChange(market: string, kind: MatchKind, size: number): void {
    let change = this.collateral.get(market);
    if (change === undefined) this.collateral.set(market, (change = { market, minted: 0n, merged: 0n }));
    if (kind === MatchKind.MINT) change.minted += BigInt(size);
    else change.merged += BigInt(size);
  }

  build(): BatchPlan {
    const balanceDeltas = [...this.balances.values()]
      .filter((b) => b.delta !== 0n)
      .sort((a, b) => compareText(a.address, b.address) || compareText(a.asset, b.asset));
    return {
      newOrders: [...this.newOrders.values()],
      orderUpdates: [...this.updates.values()],
      trades: this.trades,
      fills: this.fills,
      entries: this.entries,
      balanceDeltas,
      movements: this.movements,
      collateral: [...this.collateral.values()],
    };
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function planBatch(events: readonly ShardEvent[], market: (conditionId: string) => LedgerMarket): BatchPlan {
  const builder = new PlanBuilder(market);
  for (const event of events) builder.add(event);
  return builder.build();
}

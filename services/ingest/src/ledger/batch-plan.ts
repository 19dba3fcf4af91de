// Turns one shard batch's events into the rows one transaction writes: new orders (already
// folded to their end-of-batch state), updates of older orders, trades, maker fills, ledger
// entries, net balance changes, token movements for positions, collateral locked per market
// (with what redemptions paid and burnt), and markets' lifecycle steps.
// Pure: no I/O, so the SQL side is a handful of set-based statements over these arrays.

import { averagePrice, formatPrice } from '@pmx/codec';
import { MatchKind, Side, type TokenIndex } from '@pmx/matching';
import { collateralFor, halves, redemptionValue } from '@pmx/risk';
import { transactionHash, type ShardEvent } from '@pmx/events';
import type { LedgerMarket } from './market-directory.ts';
import { causeOfKind, kindName, orderTypeName, sideName, type Cause } from './names.ts';
import type { TokenMovement } from './positions.ts';
import type {
  BalanceDelta,
  BatchPlan,
  CollateralChange,
  FillRow,
  LedgerEntryRow,
  MarketStateChange,
  NewOrderRow,
  OrderStatus,
  OrderUpdate,
  TradeRow,
} from './plan-rows.ts';

export const COLLATERAL = 'collateral';

type TradeEvent = Extract<ShardEvent, { type: 'trade' }>;
type CustodyEvent = Extract<ShardEvent, { type: 'custody' }>;

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
  private readonly marketStates = new Map<string, MarketStateChange>();

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
      case 'custody':
        this.addCustody(event);
        return;
      case 'lifecycle': {
        const change = this.marketStates.get(event.market) ?? {
          market: event.market,
          state: event.state,
          payouts: null,
          closedAt: null,
          resolvedAt: null,
        };
        change.state = event.state;
        change.payouts = event.payouts;
        if (event.state === 'closed') change.closedAt = event.at;
        if (event.state === 'resolved') change.resolvedAt = event.at;
        this.marketStates.set(event.market, change);
        return;
      }
    }
  }

  /**
   * A split buys `tokens` of each token at half the collateral each (token0 the half rounded
   * down); a merge sells them at those halves; a redemption sells each token at what it paid.
   */
  private addCustody(event: CustodyEvent): void {
    const market = this.market(event.market);
    const { owner, tokens, collateral } = event;
    const cash = event.op === 'redeem' ? redemptionValue(tokens, event.payouts!) : undefined;
    if (cash !== undefined && cash.total !== collateral)
      throw new Error(`redemption ${event.id} pays ${collateral}, its payouts give ${cash.total}`);
    const perToken = cash?.perToken ?? halves(collateral);
    const bought = event.op === 'split';
    const entry = (asset: string, delta: number): LedgerEntryRow => ({
      address: owner,
      asset,
      delta: BigInt(delta),
      cause: event.op,
      tradeId: null,
      seq: event.seq,
      at: event.at,
    });
    const entries = [entry(COLLATERAL, bought ? -collateral : collateral)];
    market.tokens.forEach((asset, token) => {
      if (tokens[token] === 0) return;
      entries.push(entry(asset, bought ? tokens[token]! : -tokens[token]!));
      this.movements.push({
        address: owner,
        asset,
        market: market.conditionId,
        token,
        bought,
        size: tokens[token]!,
        cash: perToken[token]!,
      });
    });
    this.addEntries(entries);
    const change = this.collateralOf(market.conditionId);
    if (event.op === 'split') change.minted += BigInt(tokens[0]);
    else if (event.op === 'merge') change.merged += BigInt(tokens[0]);
    else {
      change.paidOut += BigInt(collateral);
      change.burnt = [change.burnt[0] + BigInt(tokens[0]), change.burnt[1] + BigInt(tokens[1])];
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
    this.addEntries(entries.values());
  }

  /** Ledger entries and the balance changes they make (an entry of 0 moves nothing). */
  private addEntries(entries: Iterable<LedgerEntryRow>): void {
    for (const entry of entries) {
      if (entry.delta === 0n) continue;
      this.entries.push(entry);
      const key = `${entry.address}\u0000${entry.asset}`;
      const balance = this.balances.get(key);
      if (balance === undefined)
        this.balances.set(key, { address: entry.address, asset: entry.asset, delta: entry.delta });
      else balance.delta += entry.delta;
    }
  }

  private collateralOf(market: string): CollateralChange {
    let change = this.collateral.get(market);
    if (change === undefined)
      this.collateral.set(market, (change = { market, minted: 0n, merged: 0n, paidOut: 0n, burnt: [0n, 0n] }));
    return change;
  }

  private lockChange(market: string, kind: MatchKind, size: number): void {
    const change = this.collateralOf(market);
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
      marketStates: [...this.marketStates.values()],
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

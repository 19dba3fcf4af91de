// The set-based statements that write one batch plan: each is one statement over unnest()ed
// arrays whatever the batch's size. They are issued together (pipelined on the transaction's
// connection); balances are written before positions are locked, the order the operator-transfer
// trigger also takes, so the two never deadlock.

import type { TransactionSql } from '@pmx/db';
import type { BatchPlan } from './plan-rows.ts';
import type { MidpointChange } from '../history/book-tracker.ts';
import { pgArray } from './pg-array.ts';
import type { Position, TokenMovement } from './positions.ts';

export type Tx = TransactionSql;

export function insertOrders(tx: Tx, shard: number, plan: BatchPlan) {
  const rows = plan.newOrders;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO orders (order_id, market, token, asset_id, side, order_type, price_ticks, price, size, matched, status,
                        close_reason, owner, owner_key, builder, signed_at, post_only, expires_at, created_at, updated_at, shard, accepted_seq)
    SELECT o.id, o.market, o.token, o.asset, o.side, o.type, o.ticks, o.price, o.size, o.matched, o.status,
           o.reason, o.owner, o.owner_key, o.builder, o.signed_at, o.post_only, CASE WHEN o.expires > 0 THEN to_timestamp(o.expires / 1000.0) END,
           to_timestamp(o.created / 1000.0), to_timestamp(o.updated / 1000.0), ${shard}, o.seq
      FROM unnest(${pgArray(rows.map((r) => r.orderId))}::text[], ${pgArray(rows.map((r) => r.market))}::text[],
                  ${pgArray(rows.map((r) => r.token))}::smallint[], ${pgArray(rows.map((r) => r.assetId))}::text[],
                  ${pgArray(rows.map((r) => r.side))}::text[], ${pgArray(rows.map((r) => r.orderType))}::text[],
                  ${pgArray(rows.map((r) => r.priceTicks))}::integer[], ${pgArray(rows.map((r) => r.price))}::numeric[],
                  ${pgArray(rows.map((r) => r.size))}::bigint[], ${pgArray(rows.map((r) => r.matched))}::bigint[],
                  ${pgArray(rows.map((r) => r.status))}::text[], ${pgArray(rows.map((r) => r.closeReason))}::text[],
                  ${pgArray(rows.map((r) => r.owner))}::text[], ${pgArray(rows.map((r) => r.ownerKey))}::text[],
                  ${pgArray(rows.map((r) => r.builder))}::text[], ${pgArray(rows.map((r) => r.signedAt))}::bigint[],
                  ${pgArray(rows.map((r) => r.postOnly))}::boolean[],
                  ${pgArray(rows.map((r) => r.expiresAt))}::bigint[], ${pgArray(rows.map((r) => r.createdAt))}::bigint[],
                  ${pgArray(rows.map((r) => r.updatedAt))}::bigint[], ${pgArray(rows.map((r) => r.acceptedSeq))}::bigint[])
        AS o(id, market, token, asset, side, type, ticks, price, size, matched, status, reason, owner, owner_key, builder, signed_at, post_only,
             expires, created, updated, seq)`;
}

/** Fills and closes of orders from earlier batches; a fill that completes an order makes it `matched`. */
export function updateOrders(tx: Tx, shard: number, plan: BatchPlan) {
  const rows = plan.orderUpdates;
  if (rows.length === 0) return null;
  return tx`
    UPDATE orders o
       SET matched = o.matched + u.delta,
           status = CASE WHEN u.status IS NOT NULL THEN u.status WHEN o.matched + u.delta >= o.size THEN 'matched' ELSE o.status END,
           close_reason = coalesce(u.reason, o.close_reason),
           updated_at = to_timestamp(u.at / 1000.0)
      FROM unnest(${pgArray(rows.map((r) => r.orderId))}::text[], ${pgArray(rows.map((r) => r.matchedDelta))}::bigint[],
                  ${pgArray(rows.map((r) => r.status))}::text[], ${pgArray(rows.map((r) => r.closeReason))}::text[],
                  ${pgArray(rows.map((r) => r.updatedAt))}::bigint[]) AS u(id, delta, status, reason, at)
     WHERE o.order_id = u.id AND o.shard = ${shard}`;
}

export function insertTrades(tx: Tx, shard: number, plan: BatchPlan) {
  const rows = plan.trades;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO trades (trade_id, shard, seq, market, taker_token, asset_id, taker_order_id, taker_address, side, size,
                        notional, price, price_ticks, status, match_time, transaction_hash, bucket_index, fee_rate_bps)
    SELECT t.id, ${shard}, t.seq, t.market, t.token, t.asset, t.taker_order, t.taker, t.side, t.size,
           t.notional, t.price, t.ticks, 'CONFIRMED', to_timestamp(t.at / 1000.0), t.hash, 0, t.fee
      FROM unnest(${pgArray(rows.map((r) => r.tradeId))}::text[], ${pgArray(rows.map((r) => r.seq))}::bigint[],
                  ${pgArray(rows.map((r) => r.market))}::text[], ${pgArray(rows.map((r) => r.takerToken))}::smallint[],
                  ${pgArray(rows.map((r) => r.assetId))}::text[], ${pgArray(rows.map((r) => r.takerOrderId))}::text[],
                  ${pgArray(rows.map((r) => r.takerAddress))}::text[], ${pgArray(rows.map((r) => r.side))}::text[],
                  ${pgArray(rows.map((r) => r.size))}::bigint[], ${pgArray(rows.map((r) => r.notional))}::bigint[],
                  ${pgArray(rows.map((r) => r.price))}::numeric[], ${pgArray(rows.map((r) => r.priceTicks))}::integer[],
                  ${pgArray(rows.map((r) => r.matchTime))}::bigint[], ${pgArray(rows.map((r) => r.transactionHash))}::text[],
                  ${pgArray(rows.map((r) => r.feeRateBps))}::integer[])
        AS t(id, seq, market, token, asset, taker_order, taker, side, size, notional, price, ticks, at, hash, fee)`;
}

export function insertFills(tx: Tx, shard: number, plan: BatchPlan) {
  const rows = plan.fills;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO trade_fills (trade_id, idx, maker_order_id, maker_address, maker_token, maker_asset_id, maker_side, size,
                             maker_price_ticks, maker_price, taker_price_ticks, kind, fee_rate_bps, match_time, shard, seq)
    SELECT f.trade_id, f.idx, f.maker_order_id, f.maker_address, f.maker_token, f.maker_asset_id, f.maker_side, f.size,
           f.maker_price_ticks, f.maker_price, f.taker_price_ticks, f.kind, f.fee_rate_bps, to_timestamp(f.at / 1000.0), ${shard}, f.seq
      FROM unnest(${pgArray(rows.map((r) => r.tradeId))}::text[], ${pgArray(rows.map((r) => r.idx))}::integer[],
                  ${pgArray(rows.map((r) => r.makerOrderId))}::text[], ${pgArray(rows.map((r) => r.makerAddress))}::text[],
                  ${pgArray(rows.map((r) => r.makerToken))}::smallint[], ${pgArray(rows.map((r) => r.makerAssetId))}::text[],
                  ${pgArray(rows.map((r) => r.makerSide))}::text[], ${pgArray(rows.map((r) => r.size))}::bigint[],
                  ${pgArray(rows.map((r) => r.makerPriceTicks))}::integer[], ${pgArray(rows.map((r) => r.makerPrice))}::numeric[],
                  ${pgArray(rows.map((r) => r.takerPriceTicks))}::integer[], ${pgArray(rows.map((r) => r.kind))}::text[],
                  ${pgArray(rows.map((r) => r.feeRateBps))}::integer[], ${pgArray(rows.map((r) => r.matchTime))}::bigint[],
                  ${pgArray(rows.map((r) => r.seq))}::bigint[])
        AS f(trade_id, idx, maker_order_id, maker_address, maker_token, maker_asset_id, maker_side, size,
             maker_price_ticks, maker_price, taker_price_ticks, kind, fee_rate_bps, at, seq)`;
}

/**
 * One row per builder and trade of this batch in which an order carrying the builder took or
 * rested (GET /builder/trades pages them). Issued after the batch's orders, trades and fills: it
 * reads them, and a resting order's row from an earlier batch.
 */
export function insertBuilderTrades(tx: Tx, plan: BatchPlan) {
  if (plan.trades.length === 0) return null;
  const ids = pgArray(plan.trades.map((r) => r.tradeId));
  return tx`
    INSERT INTO builder_trades (builder, trade_id, match_time, shard, seq)
    SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq
      FROM trades t JOIN orders o ON o.order_id = t.taker_order_id
     WHERE t.trade_id = ANY(${ids}::text[]) AND o.builder IS NOT NULL
    UNION
    SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq
      FROM trade_fills f JOIN trades t ON t.trade_id = f.trade_id JOIN orders o ON o.order_id = f.maker_order_id
     WHERE f.trade_id = ANY(${ids}::text[]) AND o.builder IS NOT NULL`;
}

export function insertEntries(tx: Tx, shard: number, plan: BatchPlan) {
  const rows = plan.entries;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO ledger_entries (address, asset, delta, cause, trade_id, shard, seq, created_at)
    SELECT e.address, e.asset, e.delta, e.cause, e.trade, ${shard}, e.seq, to_timestamp(e.at / 1000.0)
      FROM unnest(${pgArray(rows.map((r) => r.address))}::text[], ${pgArray(rows.map((r) => r.asset))}::text[],
                  ${pgArray(rows.map((r) => r.delta))}::numeric[], ${pgArray(rows.map((r) => r.cause))}::text[],
                  ${pgArray(rows.map((r) => r.tradeId))}::text[], ${pgArray(rows.map((r) => r.seq))}::bigint[],
                  ${pgArray(rows.map((r) => r.at))}::bigint[]) AS e(address, asset, delta, cause, trade, seq, at)`;
}

export function upsertBalances(tx: Tx, plan: BatchPlan) {
  const rows = plan.balanceDeltas;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO balances AS b (address, asset, amount)
    SELECT * FROM unnest(${pgArray(rows.map((r) => r.address))}::text[], ${pgArray(rows.map((r) => r.asset))}::text[],
                         ${pgArray(rows.map((r) => r.delta))}::numeric[])
    ON CONFLICT (address, asset) DO UPDATE SET amount = b.amount + EXCLUDED.amount, updated_at = now()`;
}

export function upsertCollateral(tx: Tx, plan: BatchPlan) {
  const rows = plan.collateral;
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO market_collateral AS c (condition_id, locked, minted, merged, paid_out, burnt0, burnt1)
    SELECT m, minted - merged - paid, minted, merged, paid, b0, b1
      FROM unnest(${pgArray(rows.map((r) => r.market))}::text[], ${pgArray(rows.map((r) => r.minted))}::numeric[],
                  ${pgArray(rows.map((r) => r.merged))}::numeric[], ${pgArray(rows.map((r) => r.paidOut))}::numeric[],
                  ${pgArray(rows.map((r) => r.burnt[0]))}::numeric[], ${pgArray(rows.map((r) => r.burnt[1]))}::numeric[])
        AS x(m, minted, merged, paid, b0, b1)
    ON CONFLICT (condition_id) DO UPDATE
       SET locked = c.locked + EXCLUDED.locked, minted = c.minted + EXCLUDED.minted, merged = c.merged + EXCLUDED.merged,
           paid_out = c.paid_out + EXCLUDED.paid_out, burnt0 = c.burnt0 + EXCLUDED.burnt0, burnt1 = c.burnt1 + EXCLUDED.burnt1,
           updated_at = now()`;
}

/**
 * Markets' lifecycle steps: state, payouts, when they closed and resolved, and the listing flags
 * that follow the state (closed once closed or resolved; accepting orders only while open).
 */
export function updateMarketStates(tx: Tx, plan: BatchPlan) {
  const rows = plan.marketStates;
  if (rows.length === 0) return null;
  return tx`
    UPDATE markets m
       SET state = x.state,
           payouts = CASE WHEN x.state = 'resolved' THEN ARRAY[x.p0, x.p1] END,
           closed_at = coalesce(to_timestamp(x.closed / 1000.0), m.closed_at),
           resolved_at = coalesce(to_timestamp(x.resolved / 1000.0), m.resolved_at),
           closed = x.state IN ('closed', 'resolved'),
           accepting_orders = x.state = 'open'
      FROM unnest(${pgArray(rows.map((r) => r.market))}::text[], ${pgArray(rows.map((r) => r.state))}::text[],
                  ${pgArray(rows.map((r) => r.payouts?.[0] ?? null))}::bigint[], ${pgArray(rows.map((r) => r.payouts?.[1] ?? null))}::bigint[],
                  ${pgArray(rows.map((r) => r.closedAt))}::bigint[], ${pgArray(rows.map((r) => r.resolvedAt))}::bigint[])
        AS x(market, state, p0, p1, closed, resolved)
     WHERE m.condition_id = x.market`;
}

/** A midpoint change at the end of the batch ending at `seq`, at that batch's time (ms). */
export interface MidpointRow extends MidpointChange {
  seq: number;
  at: number;
}

export function insertMidpoints(tx: Tx, shard: number, rows: readonly MidpointRow[]) {
  if (rows.length === 0) return null;
  return tx`
    INSERT INTO midpoint_changes (shard, seq, market, at, bid_ticks, ask_ticks)
    SELECT ${shard}, s, m, to_timestamp(t / 1000.0), b, a
      FROM unnest(${pgArray(rows.map((c) => c.seq))}::bigint[], ${pgArray(rows.map((c) => c.market))}::text[],
                  ${pgArray(rows.map((c) => c.at))}::bigint[], ${pgArray(rows.map((c) => c.bid))}::integer[],
                  ${pgArray(rows.map((c) => c.ask))}::integer[]) AS x(s, m, t, b, a)`;
}

interface PositionKey {
  address: string;
  asset: string;
  market: string;
  token: number;
}

/** The distinct holdings a batch's movements touch, sorted so every writer locks them in one order. */
export function touchedPositions(movements: readonly TokenMovement[]): PositionKey[] {
  const keys = new Map<string, PositionKey>();
  for (const m of movements)
    keys.set(`${m.address}\u0000${m.asset}`, { address: m.address, asset: m.asset, market: m.market, token: m.token });
  return [...keys.values()].sort((a, b) =>
    a.address < b.address ? -1 : a.address > b.address ? 1 : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0,
  );
}

/** Creates missing position rows so that all of them can be locked, even ones a deposit races to create. */
export function ensurePositions(tx: Tx, keys: readonly PositionKey[]) {
  if (keys.length === 0) return null;
  return tx`
    INSERT INTO positions (address, asset, market, token)
    SELECT * FROM unnest(${pgArray(keys.map((k) => k.address))}::text[], ${pgArray(keys.map((k) => k.asset))}::text[],
                         ${pgArray(keys.map((k) => k.market))}::text[], ${pgArray(keys.map((k) => k.token))}::smallint[])
    ON CONFLICT (address, asset) DO NOTHING`;
}

interface PositionRow {
  address: string;
  asset: string;
  market: string | null;
  token: number | null;
  size: string;
  cost_basis: string;
  realized_pnl: string;
  closed_cost: string;
  total_bought: string;
}

export function lockPositions(tx: Tx, keys: readonly PositionKey[]) {
  return tx<PositionRow[]>`
    SELECT p.address, p.asset, p.market, p.token, p.size, p.cost_basis, p.realized_pnl, p.closed_cost, p.total_bought
      FROM positions p
      JOIN unnest(${pgArray(keys.map((k) => k.address))}::text[], ${pgArray(keys.map((k) => k.asset))}::text[]) AS k(address, asset)
        ON p.address = k.address AND p.asset = k.asset
     ORDER BY p.address, p.asset
       FOR UPDATE OF p`;
}

export function positionFromRow(row: PositionRow, fallback: PositionKey): Position {
  return {
    address: row.address,
    asset: row.asset,
    market: row.market ?? fallback.market,
    token: row.token ?? fallback.token,
    size: BigInt(row.size),
    costBasis: BigInt(row.cost_basis),
    realizedPnl: BigInt(row.realized_pnl),
    closedCost: BigInt(row.closed_cost),
    totalBought: BigInt(row.total_bought),
  };
}

export function writePositions(tx: Tx, positions: readonly Position[]) {
  if (positions.length === 0) return null;
  return tx`
    UPDATE positions p
       SET size = x.size, cost_basis = x.cost, realized_pnl = x.pnl, closed_cost = x.closed, total_bought = x.bought,
           market = x.market, token = x.token, updated_at = now()
      FROM unnest(${pgArray(positions.map((p) => p.address))}::text[], ${pgArray(positions.map((p) => p.asset))}::text[],
                  ${pgArray(positions.map((p) => p.market))}::text[], ${pgArray(positions.map((p) => p.token))}::smallint[],
                  ${pgArray(positions.map((p) => p.size))}::bigint[], ${pgArray(positions.map((p) => p.costBasis))}::bigint[],
                  ${pgArray(positions.map((p) => p.realizedPnl))}::numeric[], ${pgArray(positions.map((p) => p.closedCost))}::numeric[],
                  ${pgArray(positions.map((p) => p.totalBought))}::numeric[])
        AS x(address, asset, market, token, size, cost, pnl, closed, bought)
     WHERE p.address = x.address AND p.asset = x.asset`;
}

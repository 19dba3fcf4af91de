// One order of an API key read back from the ledger, for GET /data/order/{id} once the order is
// neither open nor among the front end's recently closed (older, or closed before a restart).

import type { Sql, TransactionSql } from '@pmx/db';
import { HttpError } from '@pmx/http';
import { OrderType, Side } from '@pmx/matching';
import type { ClosedStatus, OrderRecord } from './open-orders.ts';
import { logger } from '@pmx/config';

export type OrderStatusName = 'LIVE' | ClosedStatus;

export interface LedgerOrder extends OrderRecord {
  status: OrderStatusName;
}

const STATUSES: Record<string, OrderStatusName> = {
  live: 'LIVE',
  matched: 'MATCHED',
  unmatched: 'UNMATCHED',
  cancelled: 'CANCELED',
  expired: 'CANCELED',
};

/** The order if the ledger has it and `ownerKey` placed it; undefined otherwise (a stranger's order is not told apart from a missing one). */
export async function ledgerOrder(sql: Sql, orderId: string, ownerKey: string): Promise<LedgerOrder | undefined> {
  try {
    return await read(sql, orderId, ownerKey);
  } catch (error) {
    logger('clob').error({ err: error }, 'GET /data/order: the ledger read failed');
    throw new HttpError(503, 'the order ledger is unavailable; retry shortly');
  }
}

async function read(sql: Sql, orderId: string, ownerKey: string): Promise<LedgerOrder | undefined> {
  const [row] = await sql<
    {
      order_id: string;
      owner: string;
      market: string;
      token: number;
      asset_id: string;
      side: string;
      order_type: string;
      price_ticks: number;
      size: string;
      matched: string;
      status: string;
      expires_at: Date | null;
      created_at: Date;
    }[]
  >`
    SELECT order_id, owner, market, token, asset_id, side, order_type, price_ticks, size, matched, status, expires_at, created_at
      FROM orders WHERE order_id = ${orderId} AND owner_key = ${ownerKey}`;
  if (row === undefined) return undefined;
  const tradeIds = (await tradeIdsOf(sql, [orderId])).get(orderId) ?? [];
  return {
    orderId: row.order_id,
    owner: ownerKey,
    maker: row.owner,
    market: row.market,
    token: row.token === 1 ? 1 : 0,
    assetId: row.asset_id,
    side: row.side === 'BUY' ? Side.BUY : Side.SELL,
    orderType: OrderType[row.order_type as keyof typeof OrderType], // the ledger's CHECK allows only these names
    price: row.price_ticks,
    size: Number(row.size),
    matched: Number(row.matched),
    expiresAt: row.expires_at === null ? 0 : row.expires_at.getTime(),
    createdAt: row.created_at.getTime(),
    tradeIds,
    status: STATUSES[row.status] ?? 'CANCELED',
  };
}

/**
 * The trades each order took part in, as taker or as maker, in its shard's sequence (an order's
 * `associate_trades`); orders without trades are left out. `sql` may be a transaction.
 */
export async function tradeIdsOf(
  sql: Sql | TransactionSql,
  orderIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (orderIds.length === 0) return out;
  const rows = await sql<{ order_id: string; trade_id: string }[]>`
    SELECT x.order_id, x.trade_id FROM (
      SELECT taker_order_id AS order_id, trade_id FROM trades WHERE taker_order_id = ANY(${orderIds as string[]}::text[])
      UNION ALL
      SELECT maker_order_id, trade_id FROM trade_fills WHERE maker_order_id = ANY(${orderIds as string[]}::text[])
    ) x JOIN trades t ON t.trade_id = x.trade_id
    ORDER BY t.shard, t.seq`;
  for (const row of rows) {
    const ids = out.get(row.order_id);
    if (ids === undefined) out.set(row.order_id, [row.trade_id]);
    else ids.push(row.trade_id);
  }
  return out;
}

// Reads what a restarting front end needs from the ledger, in one consistent snapshot: open
// orders in their original sequence, each shard's last applied sequence number, balances,
// collateral locked per market, what was supplied per asset, and each market's last trade.

import type { Sql } from '@pmx/db';
import { OrderType, Side, type TokenIndex } from '@pmx/matching';
import type { MarketState, Payouts, RestoredOrder } from '@pmx/events';
import type { MarketFunds } from '@pmx/risk';
import { tradeIdsOf } from '../orders/ledger-order.ts';
import { logger } from '@pmx/config';

export interface LedgerOrder extends RestoredOrder {
  ownerKey: string;
  /** Its API key is gone while the order is open (a crash while the key's orders were being cancelled). */
  keyDeleted: boolean;
  assetId: string;
  matched: number;
  shard: number;
  /** The trades it took part in so far, in sequence (GET /data/order's `associate_trades`). */
  tradeIds: string[];
}

export interface LedgerState {
  orders: LedgerOrder[];
  offsets: Map<number, number>;
  holdings: { address: string; asset: string; amount: number }[];
  /** Per market: collateral locked, what redemptions paid and burnt, payouts once resolved. */
  locked: MarketFunds[];
  /** Every market's place in its life, as the ledger has it. */
  markets: {
    market: string;
    state: MarketState;
    payouts: Payouts | null;
    closedAt: string | null;
    resolvedAt: string | null;
  }[];
  supplied: { asset: string; amount: number }[];
  /** First token's ticks of each market's last trade. */
  lastTrades: Map<string, number>;
  /** Every order signed at or after `signedSince` (ms), for the replay check (see the query). */
  recentOrders: { orderId: string; signedAt: number }[];
}

/** SQLSTATE of a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The ledger as recovery rebuilds from it. Operator transfers still in flight settle first: one
 * whose client is gone (a stop gave up waiting for it, Funding's Unsettled) may still commit, and
 * a snapshot before it would give its amount back to be spent again. While a session holds such
 * a write open, this waits, saying every 5 s which sessions it waits for.
 */
export async function readLedgerState(
  sql: Sql,
  ticksPerUnit: (market: string) => number | undefined,
  signedSince: number,
  log: (line: string) => void = (line) => logger('clob.recovery').warn(line),
  signal?: AbortSignal,
): Promise<LedgerState> {
  for (;;) {
    if (signal?.aborted === true) throw new Error('recovery stopped while waiting for transfers in flight');
    try {
      return await readOnce(sql, ticksPerUnit, signedSince);
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      const holders = await sql<{ pid: number }[]>`
        SELECT DISTINCT pid FROM pg_locks WHERE relation = 'operator_transfers'::regclass AND granted AND mode = 'RowExclusiveLock'`;
      log(
        `recovery waits for writes to operator_transfers still open in Postgres (sessions ${holders.map((h) => h.pid).join(', ') || 'gone'})`,
      );
    }
  }
}

function readOnce(
  sql: Sql,
  ticksPerUnit: (market: string) => number | undefined,
  signedSince: number,
): Promise<LedgerState> {
  return sql.begin('ISOLATION LEVEL REPEATABLE READ', async (tx) => {
    // SHARE waits for every insert in flight and holds off new ones while this reads; the
    // snapshot is taken by the first read after it.
    await tx`SET LOCAL lock_timeout = '5s'`;
    await tx`LOCK TABLE operator_transfers IN SHARE MODE`;
    await tx`SET LOCAL lock_timeout = 0`; // the reads after it wait as any read does
    const orders = await tx<
      {
        order_id: string;
        owner: string;
        owner_key: string | null;
        key_deleted: boolean;
        market: string;
        token: number;
        asset_id: string;
        side: string;
        order_type: string;
        price_ticks: number;
        size: string;
        matched: string;
        expires_at: Date | null;
        created_at: Date;
        shard: number;
      }[]
    >`
      SELECT o.order_id, o.owner, o.owner_key, o.owner_key IS NOT NULL AND k.api_key IS NULL AS key_deleted, o.market, o.token, o.asset_id, o.side,
             o.order_type, o.price_ticks, o.size, o.matched, o.expires_at, o.created_at, o.shard
        FROM orders o LEFT JOIN api_keys k ON k.api_key::text = o.owner_key
       WHERE o.status = 'live' ORDER BY o.shard, o.accepted_seq`;
    // The trades of the open orders, as taker and as maker, in each shard's sequence.
    const tradeIds = await tradeIdsOf(
      tx,
      orders.map((o) => o.order_id),
    );
    const offsets = await tx<{ shard: number; last_seq: string }[]>`SELECT shard, last_seq FROM shard_offsets`;
    const balances = await tx<
      { address: string; asset: string; amount: string }[]
    >`SELECT address, asset, amount::text FROM balances WHERE amount <> 0`;
    const locked = await tx<
      { condition_id: string; locked: string; paid_out: string; burnt0: string; burnt1: string }[]
    >`SELECT condition_id, locked::text, paid_out::text, burnt0::text, burnt1::text FROM market_collateral`;
    const states = await tx<
      {
        condition_id: string;
        state: MarketState;
        payouts: string[] | null;
        closed_at: Date | null;
        resolved_at: Date | null;
      }[]
    >`SELECT condition_id, state, payouts::text[] AS payouts, closed_at, resolved_at FROM markets`;
    const supplied = await tx<
      { asset: string; amount: string }[]
    >`SELECT asset, sum(amount)::text AS amount FROM operator_transfers GROUP BY asset`;
    // A market lives on one shard, so its sequence orders its trades; match_time is a clock that can step back.
    const trades = await tx<{ market: string; taker_token: number; price_ticks: number }[]>`
      SELECT DISTINCT ON (market) market, taker_token, price_ticks FROM trades ORDER BY market, seq DESC`;
    // Orders with no signed_at (recorded before migration 005, or signed with a timestamp that is
    // not a safe integer) count by when they were accepted: those of the window's span are kept.
    const recent = await tx<{ order_id: string; signed_at: string | null }[]>`
      SELECT order_id, signed_at FROM orders
       WHERE signed_at >= ${signedSince} OR (signed_at IS NULL AND created_at >= to_timestamp(${signedSince} / 1000.0))`;
    const lastTrades = new Map<string, number>();
    for (const t of trades) {
      const n = ticksPerUnit(t.market);
      if (n !== undefined) lastTrades.set(t.market, t.taker_token === 0 ? t.price_ticks : n - t.price_ticks);
    }
    return {
      orders: orders.map((o) => {
        const size = Number(o.size);
        const matched = Number(o.matched);
        return {
          orderId: o.order_id,
          owner: o.owner,
          ownerKey: o.owner_key ?? '',
          keyDeleted: o.key_deleted,
          market: o.market,
          token: o.token as TokenIndex,
          assetId: o.asset_id,
          side: o.side === 'BUY' ? Side.BUY : Side.SELL,
          orderType: OrderType[o.order_type as keyof typeof OrderType], // the ledger's CHECK allows only these names
          price: o.price_ticks,
          size,
          matched,
          remaining: size - matched,
          expiresAt: o.expires_at?.getTime() ?? 0,
          acceptedAt: o.created_at.getTime(),
          shard: o.shard,
          tradeIds: tradeIds.get(o.order_id) ?? [],
        };
      }),
      offsets: new Map(offsets.map((o) => [o.shard, Number(o.last_seq)])),
      holdings: balances.map((b) => ({ address: b.address, asset: b.asset, amount: Number(b.amount) })),
      locked: locked.map((l) => ({
        market: l.condition_id,
        amount: Number(l.locked),
        paidOut: Number(l.paid_out),
        burnt: [Number(l.burnt0), Number(l.burnt1)] as [number, number],
      })),
      markets: states.map((m) => ({
        market: m.condition_id,
        state: m.state,
        payouts: payoutsOf(m.payouts),
        closedAt: m.closed_at?.toISOString() ?? null,
        resolvedAt: m.resolved_at?.toISOString() ?? null,
      })),
      supplied: supplied.map((s) => ({ asset: s.asset, amount: Number(s.amount) })),
      lastTrades,
      recentOrders: recent.map((r) => ({
        orderId: r.order_id,
        signedAt: r.signed_at === null ? 0 : Number(r.signed_at),
      })),
    };
  }) as Promise<LedgerState>;
}

function payoutsOf(text: string[] | null): Payouts | null {
  return text === null ? null : [Number(text[0]), Number(text[1])];
}

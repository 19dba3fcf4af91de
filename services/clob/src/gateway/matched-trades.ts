// Trades the core matched that the ledger does not hold yet (docs/design/cluster.md): kept from
// the core's publications and shown by GET /data/trades as MATCHED at once; each goes once the
// ledger has applied its shard's events up to its sequence (ingest's pmx_ledger notice), and the
// ledger's row, CONFIRMED, answers from then on.

import { averagePrice, formatPrice, formatUnits } from '@pmx/codec';
import { collateralFor } from '@pmx/risk';
import { transactionHash } from '@pmx/events';
import { Side } from '@pmx/matching';
import type { Trade } from '@pmx/ledger';
import type { MatchedTrade } from '../link/core-protocol.ts';
import type { MarketRegistry } from '../markets/market-registry.ts';

/** Kept at most; past it the oldest go (the ledger has them unless ingest is far behind). */
const MAX_KEPT = 100_000;

const sideName = (side: Side) => (side === Side.BUY ? 'BUY' : 'SELL');

export interface MatchedFilter {
  /** The caller's address: its trades as taker or as maker. */
  address: string;
  /**
   * The proxies it signs or signed for, each with the span it did (ms, `from` inclusive, `until`
   * exclusive): a proxy's trade is the caller's only when matched in one of its spans, as in the ledger.
   */
  proxies: readonly { proxy: string; from: number; until: number }[];
  id?: string;
  /** Taker address; a maker address among the fills; the taker's funder (as the official client filters). */
  taker?: string;
  maker?: string;
  makerAddress?: string;
  market?: string;
  assetId?: string;
  /** Unix seconds: trades strictly before / after. */
  before?: number;
  after?: number;
}

export class MatchedTrades {
  private readonly byId = new Map<string, MatchedTrade>();
  /** Per shard, the sequence the ledger has applied. */
  private readonly confirmed = new Map<number, number>();

  constructor(private readonly markets: MarketRegistry) {}

  add(trades: readonly MatchedTrade[]): void {
    for (const trade of trades) {
      if (trade.event.seq <= (this.confirmed.get(trade.shard) ?? 0)) continue;
      this.byId.set(trade.event.tradeId, trade);
      if (this.byId.size > MAX_KEPT) this.byId.delete(this.byId.keys().next().value!);
    }
  }

  /** The ledger holds shard `shard`'s events up to `seq`. */
  confirm(shard: number, seq: number): void {
    if (seq <= (this.confirmed.get(shard) ?? 0)) return;
    this.confirmed.set(shard, seq);
    for (const [id, trade] of this.byId) if (trade.shard === shard && trade.event.seq <= seq) this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The caller's matched trades not in the ledger yet, newest first, as the contract's Trade. */
  list(filter: MatchedFilter): Trade[] {
    const self = filter.address.toLowerCase();
    const out: Trade[] = [];
    for (const trade of this.byId.values()) {
      const { event } = trade;
      const mine = (owner: string) =>
        owner === self ||
        filter.proxies.some((span) => span.proxy === owner && event.at >= span.from && event.at < span.until);
      const taker = mine(event.takerOwner);
      if (!taker && !event.fills.some((fill) => mine(fill.makerOwner))) continue;
      const wire = this.wire(trade, taker ? 'TAKER' : 'MAKER');
      if (wire === undefined) continue;
      if (filter.id !== undefined && wire.id !== filter.id) continue;
      const takerFilter = filter.taker ?? filter.makerAddress;
      if (takerFilter !== undefined && event.takerOwner !== takerFilter.toLowerCase()) continue;
      if (filter.maker !== undefined && !event.fills.some((f) => f.makerOwner === filter.maker!.toLowerCase()))
        continue;
      if (filter.market !== undefined && wire.market !== filter.market.toLowerCase()) continue;
      if (filter.assetId !== undefined && wire.asset_id !== filter.assetId) continue;
      const seconds = event.at / 1000;
      if (filter.before !== undefined && !(seconds < filter.before)) continue;
      if (filter.after !== undefined && !(seconds > filter.after)) continue;
      out.push(wire);
    }
    return out.reverse();
  }

  private wire(trade: MatchedTrade, type: 'TAKER' | 'MAKER'): Trade | undefined {
    const { event } = trade;
    const market = this.markets.get(event.market);
    if (market === undefined) return undefined;
    const n = market.ticksPerUnit;
    const notional = event.fills.reduce((sum, fill) => sum + collateralFor(fill.size, fill.takerPrice, n), 0);
    const at = new Date(event.at).toISOString();
    return {
      id: event.tradeId,
      taker_order_id: event.takerOrderId,
      market: event.market,
      asset_id: market.tokens[event.takerToken],
      side: sideName(event.takerSide),
      size: formatUnits(event.size),
      fee_rate_bps: String(market.takerBaseFee),
      price: averagePrice(notional, event.size),
      status: 'MATCHED',
      match_time: at,
      last_update: at,
      outcome: market.outcomes[event.takerToken],
      maker_address: event.takerOwner,
      owner: trade.takerKey,
      transaction_hash: transactionHash(event.tradeId),
      bucket_index: 0,
      maker_orders: event.fills.map((fill, i) => ({
        order_id: fill.makerOrderId,
        maker_address: fill.makerOwner,
        owner: trade.makerKeys[i] ?? '',
        matched_amount: formatUnits(fill.size),
        fee_rate_bps: String(market.makerBaseFee),
        price: formatPrice(fill.makerPrice, n),
        asset_id: market.tokens[fill.makerToken],
        outcome: market.outcomes[fill.makerToken],
        side: sideName(fill.makerSide),
      })),
      type,
      trader_side: type,
    };
  }
}

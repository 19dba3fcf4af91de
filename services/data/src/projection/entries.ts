// The entries of the account-data read model: a market as positions show it, and one address's
// position in one of its outcomes, with the rules every view of them shares.

import type { CatalogLink } from '@pmx/market-meta';
import type { HolderRanking } from './holder-ranking.ts';
import type { PositionView } from './position-view.ts';
import type { MarketRow, PositionRow } from '../store/account-reads.ts';

/** The price of a market not yet listed by the clob: an equal split, 0.5 in base units per token. */
export const UNLISTED_PRICE = 500_000n;

export interface MarketEntry {
  row: MarketRow;
  link: CatalogLink | undefined;
  /** The clob's prices (base units per token) for each outcome, or null until it listed the market. */
  live: [bigint, bigint] | null;
  /** What positions show of the market: the catalog's, else the order-book market's own. */
  title: string;
  titleLower: string;
  slug: string;
  icon: string;
  eventSlug: string;
  /** ISO 8601, '' when neither the catalog nor the order book has one. */
  endDate: string;
  /** endDate in ms for sorting (RESOLVING); unknown dates sort as the farthest. */
  endMs: number;
  holders: [HolderRanking, HolderRanking];
  /** Moves whenever the holders change (a cached GET /holders answer holds while it does not). */
  holdersVersion: number;
  /** Every position in this market, open or closed. */
  positions: Set<PositionEntry>;
}

/** One address's positions by token id. */
export interface Wallet {
  positions: Map<string, PositionEntry>;
  /** Moves whenever any of its positions' views changes (a cached answer holds while it does not). */
  version: number;
}

export interface PositionEntry {
  address: string;
  market: MarketEntry;
  index: 0 | 1;
  ledger: PositionRow;
  view: PositionView | undefined;
}

export type PositionKind = 'open' | 'closed' | 'none';

/** Open while tokens are held; closed once fully reduced after holding some; none otherwise. */
export function kindOf(ledger: PositionRow): PositionKind {
  if (ledger.size > 0n) return 'open';
  if (ledger.size === 0n && (ledger.totalBought > 0n || ledger.closedCost > 0n || ledger.realizedPnl !== 0n))
    return 'closed';
  return 'none';
}

/** The price a position is valued at: the payout once resolved, else the clob's, else 0.5. */
export function priceOf(market: MarketEntry, index: 0 | 1): bigint {
  const { state, payouts } = market.row;
  if (state === 'resolved' && payouts !== null) return payouts[index];
  return market.live?.[index] ?? UNLISTED_PRICE;
}


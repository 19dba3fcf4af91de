// The account-data read model: each order-book market (with its catalog link, live prices and
// ranked holders), each wallet's positions, and the public profiles holders are shown with. Writes
// come from the projection (rows read from Postgres); reads from the routes. A position's rendered
// view is cached until the position, its market or the wallet's other outcome changes.

import type { CatalogLink } from '@pmx/market-meta';
import { HolderRanking } from './holder-ranking.ts';
import type { MarketRow, PositionRow, ProfileRow } from '../store/account-reads.ts';
import { ResponseCache } from '@pmx/http';
import { priceOf, type MarketEntry, type PositionEntry, type Wallet } from './entries.ts';
import { renderPosition, type PositionView } from './position-view.ts';

const NO_END = Number.MAX_SAFE_INTEGER;

export class AccountState {
  readonly markets = new Map<string, MarketEntry>();
  readonly byToken = new Map<string, { market: MarketEntry; index: 0 | 1 }>();
  readonly wallets = new Map<string, Wallet>();
  readonly profiles = new Map<string, ProfileRow>();
  /** Moves whenever a profile changes (holders show them). */
  profilesVersion = 0;
  /** Whole answers by request, each valid while its wallet's or markets' versions hold. */
  readonly responses: ResponseCache;
  private readonly profileWallets = new Map<number, string>();
  /** Positions of markets not (yet) known, kept to be placed once the market is read. */
  private readonly orphans = new Map<string, PositionRow[]>();

  constructor(responseCacheEntries = 0) {
    this.responses = new ResponseCache(responseCacheEntries);
  }

  putMarket(row: MarketRow, link?: CatalogLink): void {
    let market = this.markets.get(row.conditionId);
    if (market === undefined) {
      market = {
        row,
        link,
        live: null,
        title: '',
        titleLower: '',
        slug: '',
        icon: '',
        eventSlug: '',
        endDate: '',
        endMs: NO_END,
        holders: [new HolderRanking(), new HolderRanking()],
        holdersVersion: 0,
        positions: new Set(),
      };
      this.markets.set(row.conditionId, market);
    } else {
      market.row = row;
      if (link !== undefined) market.link = link;
    }
    row.tokens.forEach((token, index) => this.byToken.set(token, { market: market, index: index as 0 | 1 }));
    this.describe(market);
    const waiting = this.orphans.get(row.conditionId);
    if (waiting !== undefined) {
      this.orphans.delete(row.conditionId);
      for (const position of waiting) this.putPosition(position);
    }
  }

  /** The catalog link of a market changed (or went: undefined). */
  setLink(conditionId: string, link: CatalogLink | undefined): void {
    const market = this.markets.get(conditionId);
    if (market === undefined) return;
    market.link = link;
    this.describe(market);
  }

  /** The clob's prices, condition id → one per outcome (numbers as listed). */
  setPrices(prices: ReadonlyMap<string, readonly number[]>): void {
    for (const [conditionId, listed] of prices) {
      const market = this.markets.get(conditionId);
      if (market === undefined || listed.length !== 2) continue;
      const next: [bigint, bigint] = [baseUnitsPerToken(listed[0]!), baseUnitsPerToken(listed[1]!)];
      if (market.live !== null && market.live[0] === next[0] && market.live[1] === next[1]) continue;
      market.live = next;
      this.invalidateMarket(market);
    }
  }

  /** Takes the live prices another state has for the markets this one knows. */
  adoptPrices(from: AccountState): void {
    for (const [id, market] of this.markets) market.live = from.markets.get(id)?.live ?? market.live;
  }

  putPosition(row: PositionRow): void {
    const market = this.markets.get(row.market);
    if (market === undefined) {
      const waiting = this.orphans.get(row.market) ?? [];
      this.orphans.set(row.market, [...waiting.filter((p) => p.address !== row.address || p.asset !== row.asset), row]);
      return;
    }
    const index = market.row.tokens.indexOf(row.asset);
    if (index < 0) return;
    let wallet = this.wallets.get(row.address);
    if (wallet === undefined) this.wallets.set(row.address, (wallet = { positions: new Map(), version: 0 }));
    let entry = wallet.positions.get(row.asset);
    if (entry === undefined) {
      entry = { address: row.address, market, index: index as 0 | 1, ledger: row, view: undefined };
      wallet.positions.set(row.asset, entry);
      market.positions.add(entry);
    }
    entry.ledger = row;
    this.invalidate(entry);
    market.holders[index]!.set(row.address, row.size > 0n ? Number(row.size) : 0);
    market.holdersVersion++;
    // The other outcome's `mergeable` follows this one's size.
    const sibling = wallet.positions.get(market.row.tokens[1 - index]!);
    if (sibling !== undefined) this.invalidate(sibling);
  }

  /** Markets whose positions are awaited (read them to place the positions). */
  awaitedMarkets(): string[] {
    return [...this.orphans.keys()];
  }

  putProfile(row: ProfileRow): void {
    this.dropProfile(row.id);
    this.profilesVersion++;
    this.profiles.set(row.proxyWallet, row);
    this.profileWallets.set(row.id, row.proxyWallet);
  }

  dropProfile(id: number): void {
    const wallet = this.profileWallets.get(id);
    if (wallet === undefined) return;
    this.profilesVersion++;
    this.profileWallets.delete(id);
    if (this.profiles.get(wallet)?.id === id) this.profiles.delete(wallet);
  }

  /** The view of a position, rendered once per change. */
  view(entry: PositionEntry): PositionView {
    if (entry.view === undefined) {
      const sibling = this.wallets.get(entry.address)?.positions.get(entry.market.row.tokens[1 - entry.index]!);
      entry.view = renderPosition(entry, priceOf(entry.market, entry.index), (sibling?.ledger.size ?? 0n) > 0n);
    }
    return entry.view;
  }

  private describe(market: MarketEntry): void {
    const { row, link } = market;
    market.title = link?.question || row.question;
    market.titleLower = market.title.toLowerCase();
    market.slug = link?.slug || row.slug;
    market.icon = link?.icon || row.icon;
    market.eventSlug = link?.event?.slug ?? '';
    market.endDate = link?.endDate ?? row.endDate ?? '';
    market.endMs = market.endDate === '' ? NO_END : Date.parse(market.endDate);
    this.invalidateMarket(market);
  }

  private invalidateMarket(market: MarketEntry): void {
    for (const entry of market.positions) this.invalidate(entry);
  }

  private invalidate(entry: PositionEntry): void {
    entry.view = undefined;
    const wallet = this.wallets.get(entry.address);
    if (wallet !== undefined) wallet.version++;
  }
}

/** A listed price (a decimal of at most 6 places, as a JSON number) in base units per token. */
function baseUnitsPerToken(price: number): bigint {
  return BigInt(Math.round(price * 1_000_000));
}

// The catalog held in memory: every record by id and by its lookup keys, the link tables both
// ways, comment threads, and the bookkeeping that keeps rendered JSON and derived indexes
// honest — each change clears exactly the cached JSON that shows it and bumps the version of
// the kinds whose lists or indexes it can reorder.

import { LinkIndex } from './link-index.ts';
import { RecordTable } from './record-table.ts';
import {
  entityKey,
  type CommentRecord,
  type EntityKind,
  type EventRecord,
  type MarketRecord,
  type ProfileRecord,
  type SeriesRecord,
  type TagRecord,
} from './records.ts';
import type { LinkTable } from '../store/catalog-reads.ts';

/** Live outcome prices by condition id (decimal strings), filled by the price feed. */
export type OutcomePrices = Map<string, readonly string[]>;
/** Positions by lower-case address: token id → size in base units (decimal string). */
export type Holdings = Map<string, Map<string, string>>;

export interface EventAggregates {
  volume: number;
  volume24hr: number;
  liquidity: number;
  /** Mean of the markets' competitiveness. */
  competitive: number;
}

const NO_IDS: ReadonlySet<number> = new Set();

export class CatalogState {
  readonly tags = new RecordTable<TagRecord, 'slug'>({ slug: (t) => t.slug });
  readonly series = new RecordTable<SeriesRecord, 'slug'>({ slug: (s) => s.slug });
  readonly events = new RecordTable<EventRecord, 'slug'>({ slug: (e) => e.slug });
  readonly markets = new RecordTable<MarketRecord, 'slug' | 'conditionId'>({
    slug: (m) => m.slug,
    conditionId: (m) => m.conditionId,
  });
  readonly profiles = new RecordTable<ProfileRecord, 'proxyWallet' | 'baseAddress'>(
    { proxyWallet: (p) => p.proxyWallet, baseAddress: (p) => p.baseAddress },
    ['baseAddress'],
  );
  readonly comments = new RecordTable<CommentRecord, never>({});
  /** Top-level comment ids by entityKey. */
  readonly threads = new Map<string, Set<number>>();
  /** Reply ids by top-level comment id. */
  readonly replies = new Map<number, Set<number>>();
  readonly commentsByAuthor = new Map<string, Set<number>>();

  readonly eventMarkets = new LinkIndex();
  readonly eventTags = new LinkIndex();
  readonly marketTags = new LinkIndex();
  readonly seriesEvents = new LinkIndex();

  /** Bumped when a change can reorder or refilter that kind's lists. */
  readonly versions: Record<EntityKind, number> = { tag: 0, series: 0, event: 0, market: 0, profile: 0, comment: 0 };
  /** Bumped on every change at all (any response may show it). */
  epoch = 0;

  private marketsOfTagMemo = new Map<number, ReadonlySet<number>>();
  private marketsOfTagVersion = -1;
  private aggregatesMemo = new Map<number, EventAggregates>();
  private aggregatesVersion = -1;

  constructor(
    readonly prices: OutcomePrices,
    readonly holdings: Holdings,
  ) {}

  /** A profile by its proxy wallet, else by its base (signer) address. */
  profileByAddress(address: string): ProfileRecord | undefined {
    return this.profiles.find('proxyWallet', address) ?? this.profiles.find('baseAddress', address);
  }

  // ---- writes (from the loader and the change listener) ----

  putTag(tag: TagRecord): void {
    this.tags.put(tag);
    this.touchTag(tag.id);
  }

  dropTag(id: number): void {
    if (this.tags.drop(id) !== undefined) this.touchTag(id);
  }

  putSeries(series: SeriesRecord): void {
    this.series.put(series);
    this.touchSeries(series.id);
  }

  dropSeries(id: number): void {
    if (this.series.drop(id) !== undefined) this.touchSeries(id);
  }

  putEvent(event: EventRecord): void {
    this.events.put(event);
    this.touchEvent(event.id);
  }

  dropEvent(id: number): void {
    if (this.events.drop(id) !== undefined) this.touchEvent(id);
  }

  putMarket(market: MarketRecord): void {
    const old = this.markets.put(market);
    this.touchMarket(market.id);
    // Relinked to another order-book market: other tokens, so other positions in comments.
    if (old === undefined || old.tokens.join() !== market.tokens.join()) this.clearCommentsHeldThrough(market.id);
  }

  dropMarket(id: number): void {
    if (this.markets.drop(id) !== undefined) {
      this.touchMarket(id);
      this.clearCommentsHeldThrough(id);
    }
  }

  putProfile(profile: ProfileRecord): void {
    const old = this.profiles.put(profile);
    if (old !== undefined) this.touchProfile(old);
    this.touchProfile(profile);
  }

  dropProfile(id: number): void {
    const old = this.profiles.drop(id);
    if (old !== undefined) this.touchProfile(old);
  }

  putComment(comment: CommentRecord): void {
    this.dropComment(comment.id);
    this.comments.put(comment);
    if (comment.parentCommentId === null)
      addTo(this.threads, entityKey(comment.parentEntityType, comment.parentEntityId), comment.id);
    else addTo(this.replies, comment.parentCommentId, comment.id);
    addTo(this.commentsByAuthor, comment.userAddress, comment.id);
    this.touchComment(comment);
  }

  dropComment(id: number): void {
    const old = this.comments.drop(id);
    if (old === undefined) return;
    if (old.parentCommentId === null) removeFrom(this.threads, entityKey(old.parentEntityType, old.parentEntityId), id);
    else removeFrom(this.replies, old.parentCommentId, id);
    removeFrom(this.commentsByAuthor, old.userAddress, id);
    this.touchComment(old);
  }

  /** A row of a link table now exists (present) or not. */
  setLink(table: LinkTable, a: number, b: number, present: boolean): void {
    this.epoch++;
    const index = this.linkIndex(table);
    if (present) index.add(a, b);
    else index.remove(a, b);
    const v = this.versions;
    switch (table) {
      case 'catalog_event_markets':
        v.market++;
        v.event++;
        this.clearEvent(a);
        this.clearMarket(b);
        this.clearCommentsOnEvent(a);
        break;
      case 'catalog_event_tags':
        v.market++; // markets carry their events' tags
        v.event++;
        this.clearEvent(a);
        break;
      case 'catalog_market_tags':
        v.market++;
        break;
      case 'catalog_series_events':
        v.series++;
        v.event++;
        clear(this.series.get(a));
        this.clearEvent(b);
        this.clearCommentsOn('Series', a);
        break;
    }
  }

  linkIndex(table: LinkTable): LinkIndex {
    switch (table) {
      case 'catalog_event_markets':
        return this.eventMarkets;
      case 'catalog_event_tags':
        return this.eventTags;
      case 'catalog_market_tags':
        return this.marketTags;
      case 'catalog_series_events':
        return this.seriesEvents;
    }
  }

  /** The price feed moved these markets' outcome prices. */
  pricesChanged(conditionIds: Iterable<string>): void {
    this.epoch++;
    for (const conditionId of conditionIds) {
      const market = this.markets.find('conditionId', conditionId);
      if (market === undefined) continue;
      clear(market);
      for (const eventId of this.eventMarkets.to(market.id)) {
        const event = this.events.get(eventId);
        if (event !== undefined) event.cache.detail = undefined;
      }
    }
  }

  /** The positions feed saw these authors' positions change. */
  holdingsChanged(addresses: Iterable<string>): void {
    this.epoch++;
    for (const address of addresses)
      for (const id of this.commentsByAuthor.get(address) ?? NO_IDS) this.clearComment(id);
  }

  // ---- derived reads ----

  /** Markets a tag applies to: tagged themselves or through one of their events. */
  marketsOfTag(tagId: number): ReadonlySet<number> {
    if (this.marketsOfTagVersion !== this.versions.market) {
      this.marketsOfTagMemo = new Map();
      this.marketsOfTagVersion = this.versions.market;
    }
    let ids = this.marketsOfTagMemo.get(tagId);
    if (ids === undefined) {
      const set = new Set(this.marketTags.to(tagId));
      for (const eventId of this.eventTags.to(tagId))
        for (const marketId of this.eventMarkets.of(eventId)) set.add(marketId);
      ids = set;
      this.marketsOfTagMemo.set(tagId, ids);
    }
    return ids;
  }

  /** An event's volume, liquidity and competitiveness, from its markets. */
  aggregates(eventId: number): EventAggregates {
    if (this.aggregatesVersion !== this.versions.event) {
      this.aggregatesMemo = new Map();
      this.aggregatesVersion = this.versions.event;
    }
    let value = this.aggregatesMemo.get(eventId);
    if (value === undefined) {
      value = { volume: 0, volume24hr: 0, liquidity: 0, competitive: 0 };
      let count = 0;
      for (const marketId of this.eventMarkets.of(eventId)) {
        const market = this.markets.get(marketId);
        if (market === undefined) continue;
        value.volume += market.volume;
        value.volume24hr += market.volume24hr;
        value.liquidity += market.liquidity;
        value.competitive += market.competitive;
        count++;
      }
      if (count > 0) value.competitive /= count;
      // As shown (6 decimals), so that sorting sees what a reader sees: the raw sums differ in
      // their last bits (0.1 + 0.2 against 0.3), and equal shown volumes must be ordered by
      // ascending id as documented.
      value.volume = round6(value.volume);
      value.volume24hr = round6(value.volume24hr);
      value.liquidity = round6(value.liquidity);
      value.competitive = round6(value.competitive);
      this.aggregatesMemo.set(eventId, value);
    }
    return value;
  }

  /** Market ids of the entity a comment hangs on (for holders and comment positions). */
  marketsOfEntity(type: CommentRecord['parentEntityType'], id: number): number[] {
    if (type === 'market') return this.markets.has(id) ? [id] : [];
    if (type === 'Event') return [...this.eventMarkets.of(id)];
    // A market in two of the series' events counts once (its positions are listed once).
    const out = new Set<number>();
    for (const eventId of this.seriesEvents.of(id))
      for (const marketId of this.eventMarkets.of(eventId)) out.add(marketId);
    return [...out];
  }

  entityExists(type: CommentRecord['parentEntityType'], id: number): boolean {
    if (type === 'market') return this.markets.has(id);
    if (type === 'Event') return this.events.has(id);
    return this.series.has(id);
  }

  // ---- invalidation ----

  private touchTag(id: number): void {
    this.epoch++;
    this.versions.tag++;
    this.versions.event++;
    clear(this.tags.get(id));
    for (const eventId of this.eventTags.to(id)) this.clearEvent(eventId);
  }

  private touchSeries(id: number): void {
    this.epoch++;
    this.versions.series++;
    clear(this.series.get(id));
    for (const eventId of this.seriesEvents.of(id)) {
      const event = this.events.get(eventId);
      if (event !== undefined) event.cache.detail = undefined;
    }
  }

  private touchEvent(id: number): void {
    this.epoch++;
    this.versions.event++;
    this.versions.market++;
    this.clearEvent(id);
    for (const marketId of this.eventMarkets.of(id)) this.clearMarket(marketId);
    for (const seriesId of this.seriesEvents.to(id)) clear(this.series.get(seriesId));
  }

  private touchMarket(id: number): void {
    this.epoch++;
    this.versions.market++;
    this.versions.event++;
    this.clearMarket(id);
    for (const eventId of this.eventMarkets.to(id)) this.clearEvent(eventId);
  }

  private touchProfile(profile: ProfileRecord): void {
    this.epoch++;
    this.versions.profile++;
    for (const address of [profile.proxyWallet, profile.baseAddress]) {
      for (const id of this.commentsByAuthor.get(address) ?? NO_IDS) this.clearComment(id);
    }
  }

  private touchComment(comment: CommentRecord): void {
    this.epoch++;
    this.versions.comment++;
    clear(comment);
    if (comment.parentCommentId !== null) clear(this.comments.get(comment.parentCommentId));
  }

  private clearEvent(id: number): void {
    clear(this.events.get(id));
  }

  private clearMarket(id: number): void {
    clear(this.markets.get(id));
  }

  /**
   * Comments carry their authors' positions in the markets of the entity they hang on: when which
   * markets those are changes (a link, a market relinked or gone), the comments' JSON goes too,
   * so it never shows positions `holders_only` no longer agrees with.
   */
  private clearCommentsOn(type: CommentRecord['parentEntityType'], id: number): void {
    for (const commentId of this.threads.get(entityKey(type, id)) ?? NO_IDS) {
      this.clearComment(commentId);
      for (const replyId of this.replies.get(commentId) ?? NO_IDS) this.clearComment(replyId);
    }
  }

  /** The comments on an event and on the series it is in. */
  private clearCommentsOnEvent(eventId: number): void {
    this.clearCommentsOn('Event', eventId);
    for (const seriesId of this.seriesEvents.to(eventId)) this.clearCommentsOn('Series', seriesId);
  }

  /** The comments on a market and on every event (and series) it is in. */
  private clearCommentsHeldThrough(marketId: number): void {
    this.clearCommentsOn('market', marketId);
    for (const eventId of this.eventMarkets.to(marketId)) this.clearCommentsOnEvent(eventId);
  }

  private clearComment(id: number): void {
    const comment = this.comments.get(id);
    if (comment === undefined) return;
    clear(comment);
    if (comment.parentCommentId !== null) clear(this.comments.get(comment.parentCommentId));
  }
}

function clear(record: { cache: object } | undefined): void {
  if (record !== undefined) record.cache = {};
}

function addTo<K>(map: Map<K, Set<number>>, key: K, id: number): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(id);
}

function removeFrom<K>(map: Map<K, Set<number>>, key: K, id: number): void {
  const set = map.get(key);
  if (set !== undefined && set.delete(id) && set.size === 0) map.delete(key);
}

/** A figure to 6 decimals, as the catalog shows totals. */
export function round6(value: number): number {
  return Number(value.toFixed(6));
}

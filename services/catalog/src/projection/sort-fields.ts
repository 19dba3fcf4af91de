// The sortable fields of each list (the `order` parameter's allowed values, camelCase wire
// names) and how to read each from a record. Dates are ISO strings, so they compare as text.

import type { CatalogState } from './catalog-state.ts';
import type { SortKey } from './list-query.ts';
import type { CommentRecord, EventRecord, MarketRecord, SeriesRecord, TagRecord } from './records.ts';

export type SortFields<T> = Readonly<Record<string, SortKey<T>>>;

export const MARKET_SORT: SortFields<MarketRecord> = {
  id: (m) => m.id,
  volume: (m) => m.volume,
  volumeNum: (m) => m.volume,
  volume24hr: (m) => m.volume24hr,
  liquidity: (m) => m.liquidity,
  liquidityNum: (m) => m.liquidity,
  competitive: (m) => m.competitive,
  startDate: (m) => m.startDate ?? m.createdAt,
  endDate: (m) => m.endDate,
  createdAt: (m) => m.createdAt,
  updatedAt: (m) => m.updatedAt,
  closedTime: (m) => m.closedTime,
  question: (m) => m.question,
  slug: (m) => m.slug,
};

/** Event volume, liquidity and competitiveness are their markets' totals (mean for competitive). */
export function eventSortFields(state: CatalogState): SortFields<EventRecord> {
  return {
    id: (e) => e.id,
    volume: (e) => state.aggregates(e.id).volume,
    volumeNum: (e) => state.aggregates(e.id).volume,
    volume24hr: (e) => state.aggregates(e.id).volume24hr,
    liquidity: (e) => state.aggregates(e.id).liquidity,
    liquidityNum: (e) => state.aggregates(e.id).liquidity,
    competitive: (e) => state.aggregates(e.id).competitive,
    startDate: (e) => e.startDate ?? e.creationDate,
    endDate: (e) => e.endDate,
    creationDate: (e) => e.creationDate,
    createdAt: (e) => e.createdAt,
    updatedAt: (e) => e.updatedAt,
    closedTime: (e) => e.closedTime,
    title: (e) => e.title,
    slug: (e) => e.slug,
  };
}

export const SERIES_SORT: SortFields<SeriesRecord> = {
  id: (s) => s.id,
  title: (s) => s.title,
  slug: (s) => s.slug,
  createdAt: (s) => s.createdAt,
  updatedAt: (s) => s.updatedAt,
};

export const TAG_SORT: SortFields<TagRecord> = {
  id: (t) => t.id,
  label: (t) => t.label,
  slug: (t) => t.slug,
  createdAt: (t) => t.createdAt,
  updatedAt: (t) => t.updatedAt,
};

export function commentSortFields(state: CatalogState): SortFields<CommentRecord> {
  return {
    id: (c) => c.id,
    createdAt: (c) => c.createdAt,
    updatedAt: (c) => c.updatedAt,
    reactionCount: (c) => c.reactionCount,
    replyCount: (c) => state.replies.get(c.id)?.size ?? 0,
  };
}

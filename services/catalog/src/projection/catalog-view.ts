// One consistent read model: a CatalogState with its renderer and the list machinery of each
// kind. A full reload builds a new view and swaps it in whole, so cached sorts never outlive
// the data they were built from.

import type { CatalogState } from './catalog-state.ts';
import { RecordList } from './list-query.ts';
import type { CommentRecord, EventRecord, MarketRecord, ProfileRecord, SeriesRecord, TagRecord } from './records.ts';
import { CatalogRenderer } from './render.ts';
import { commentSortFields, eventSortFields, type SortFields } from './sort-fields.ts';
import { ResponseCache } from '@pmx/http';
import { SearchIndex } from './search-index.ts';

export class CatalogView {
  readonly render: CatalogRenderer;
  readonly markets: RecordList<MarketRecord>;
  readonly events: RecordList<EventRecord>;
  readonly series: RecordList<SeriesRecord>;
  readonly tags: RecordList<TagRecord>;
  /** Top-level comments only; replies come along with them. */
  readonly threads: RecordList<CommentRecord>;
  readonly profiles: RecordList<ProfileRecord>;
  readonly eventSort: SortFields<EventRecord>;
  readonly commentSort: SortFields<CommentRecord>;
  readonly search: SearchIndex;
  readonly responses: ResponseCache;

  constructor(
    readonly state: CatalogState,
    responseCacheEntries: number,
  ) {
    const v = state.versions;
    this.render = new CatalogRenderer(state);
    this.markets = new RecordList(
      () => state.markets.values(),
      () => v.market,
    );
    this.events = new RecordList(
      () => state.events.values(),
      () => v.event,
    );
    this.series = new RecordList(
      () => state.series.values(),
      () => v.series,
    );
    this.tags = new RecordList(
      () => state.tags.values(),
      () => v.tag,
    );
    this.threads = new RecordList(
      () => topLevel(state.comments.values()),
      () => v.comment,
    );
    this.profiles = new RecordList(
      () => state.profiles.values(),
      () => v.profile,
    );
    this.eventSort = eventSortFields(state);
    this.commentSort = commentSortFields(state);
    this.search = new SearchIndex(state);
    this.responses = new ResponseCache(responseCacheEntries);
  }

  /** A list or search body, from the response cache while nothing has changed. */
  cachedBody(path: string, rawQuery: string, build: () => string): string {
    return this.responses.through(`${path}?${rawQuery}`, () => this.state.epoch, build);
  }
}

function* topLevel(comments: Iterable<CommentRecord>): Iterable<CommentRecord> {
  for (const comment of comments) if (comment.parentCommentId === null) yield comment;
}

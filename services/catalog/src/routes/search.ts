// GET /public-search?q= : events (matched on their own title, ticker and slug or on their
// markets' questions and slugs), tags and profiles, grouped by kind, with events paged.
// Default event order: events whose title has every term first, then by volume, then id.

import type { Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import { comparator } from '../projection/list-query.ts';
import type { EventRecord } from '../projection/records.ts';
import { jsonArray } from '../projection/render.ts';
import { searchTerms, type EventHit } from '../projection/search-index.ts';
import * as params from './query-params.ts';

export const SEARCH_DEFAULT_PER_TYPE = 10;
export const SEARCH_MAX_PER_TYPE = 50;
const MAX_QUERY = 200;

function relevance(state: { aggregates(id: number): { volume: number } }): (a: EventHit, b: EventHit) => number {
  return (a, b) => {
    if (a.inTitle !== b.inTitle) return a.inTitle ? -1 : 1;
    const byVolume = state.aggregates(b.event.id).volume - state.aggregates(a.event.id).volume;
    return byVolume !== 0 ? byVolume : a.event.id - b.event.id;
  };
}

export function searchRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/public-search',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => searchBody(view, ctx.query)) };
      },
    },
  ];
}

/** GET /public-search: events, tags and profiles matching q, serialised. */
function searchBody(view: CatalogView, q: URLSearchParams): string {
  const text = params.required(q, 'q');
  if (text.length > MAX_QUERY) throw params.badRequest(`q is too long (at most ${MAX_QUERY} characters)`);
  const perType = Math.min(params.integer(q, 'limit_per_type') ?? SEARCH_DEFAULT_PER_TYPE, SEARCH_MAX_PER_TYPE);
  // 0 per type would answer hasMore on every page, and a client paging on it would never stop.
  if (perType < 1) throw params.badRequest('limit_per_type must be a positive integer');
  const page = params.integer(q, 'page') ?? 1;
  if (page < 1) throw params.badRequest('page must be a positive integer');
  const status = params.text(q, 'events_status')?.toLowerCase() ?? 'all';
  if (status !== 'active' && status !== 'closed' && status !== 'all')
    throw params.badRequest('events_status must be active, closed or all');
  const tagSlugs = params.textList(q, 'events_tag');
  const searchTags = params.bool(q, 'search_tags') ?? true;
  const searchProfiles = params.bool(q, 'search_profiles') ?? true;
  const { state, render, search } = view;
  const sorted = params.text(q, 'sort') === undefined ? undefined : params.sortPlan(q, view.eventSort, 'sort');

  const terms = searchTerms(text);
  if (terms.length === 0) throw params.badRequest('q is required');
  const tagIds = tagSlugs?.map((slug) => state.tags.find('slug', slug)?.id ?? 0);
  const accept = (event: EventRecord): boolean =>
    (status === 'all' || (status === 'active' ? event.active && !event.closed : event.closed)) &&
    (tagIds === undefined || tagIds.every((id) => state.eventTags.of(event.id).has(id)));
  const hits = search.events(terms, accept);
  if (sorted === undefined) hits.sort(relevance(state));
  else {
    const compare = comparator(sorted);
    hits.sort((a, b) => compare(a.event, b.event));
  }
  const start = Math.min((page - 1) * perType, hits.length);
  const events = hits.slice(start, start + perType).map((hit) => render.eventList(hit.event));
  const tags = searchTags
    ? search
        .tags(terms)
        .slice(0, perType)
        .map((t) => render.tag(t))
    : [];
  const profiles = searchProfiles
    ? search
        .profiles(terms)
        .slice(0, perType)
        .map((p) => render.publicProfile(p))
    : [];
  const pagination = JSON.stringify({ hasMore: start + perType < hits.length, totalResults: hits.length });
  return `{"events":${jsonArray(events)},"tags":${jsonArray(tags)},"profiles":${jsonArray(profiles)},"pagination":${pagination}}`;
}

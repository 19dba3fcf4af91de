// GET /events (filters AND-combined, sort, page), /events/{id} and /events/slug/{slug}.

import type { Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import { jsonArray } from '../projection/render.ts';
import { recordsOf } from '../projection/record-table.ts';
import { candidateIds } from './narrowing.ts';
import * as params from './query-params.ts';

export const EVENT_LIST_MAX = 500;

export function eventRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/events',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => listEvents(view, ctx.query)) };
      },
    },
    {
      method: 'GET',
      path: '/events/slug/:slug',
      handler: (ctx) => {
        const { state, render } = projection.view;
        return {
          body: render.eventDetail(
            params.found(state.events.find('slug', ctx.params.slug ?? ''), ctx.query, 'slug not found'),
          ),
        };
      },
    },
    {
      method: 'GET',
      path: '/events/:id',
      handler: (ctx) => {
        const { state, render } = projection.view;
        return {
          body: render.eventDetail(
            params.found(state.events.get(params.pathInteger(ctx.params.id)), ctx.query, 'id not found'),
          ),
        };
      },
    },
  ];
}

/** GET /events: the page of events the filters, sort and paging select, serialised. */
function listEvents(view: CatalogView, q: URLSearchParams): string {
  const { state, render, events, eventSort } = view;
  const limit = params.limit(q, EVENT_LIST_MAX);
  const offset = params.offset(q);
  const plan = params.sortPlan(q, eventSort);
  const partition = params.statusPartition(q);
  const ids = params.integerList(q, 'id');
  const tagId = params.integer(q, 'tag_id');
  const tagSlug = params.text(q, 'tag_slug', 'tag');
  const seriesSlug = params.text(q, 'series_slug');
  const slugs = params.textList(q, 'slug');

  const none: ReadonlySet<number> = new Set<number>();
  const byTagId = tagId === undefined ? undefined : state.eventTags.to(tagId);
  const tag = tagSlug === undefined ? undefined : state.tags.find('slug', tagSlug);
  const byTagSlug = tagSlug === undefined ? undefined : tag === undefined ? none : state.eventTags.to(tag.id);
  const series = seriesSlug === undefined ? undefined : state.series.find('slug', seriesSlug);
  const bySeries =
    seriesSlug === undefined ? undefined : series === undefined ? none : state.seriesEvents.of(series.id);
  const byIds = ids === undefined ? undefined : new Set(ids);
  const bySlug = slugs === undefined ? undefined : new Set(slugs.map((s) => state.events.find('slug', s)?.id ?? 0));
  const sets = [byTagId, byTagSlug, bySeries, byIds, bySlug].filter((s) => s !== undefined);
  const narrowest = candidateIds(state.events.size, offset + limit, ...sets);

  const page = events.page({
    plan,
    partition,
    matches: params.remainingFilter(q, sets),
    offset,
    limit,
    candidates: narrowest === undefined ? undefined : recordsOf(narrowest, state.events),
  });
  return jsonArray(page.map((e) => render.eventList(e)));
}

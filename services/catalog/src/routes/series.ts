// GET /series (page, creator, and the same status/slug filters and sort as the other lists)
// and /series/{id}; each series carries its events' summaries.

import type { Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import type { SeriesRecord } from '../projection/records.ts';
import { jsonArray } from '../projection/render.ts';
import { SERIES_SORT } from '../projection/sort-fields.ts';
import * as params from './query-params.ts';

export const SERIES_LIST_MAX = 50;

export function seriesRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/series',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => listSeries(view, ctx.query)) };
      },
    },
    {
      method: 'GET',
      path: '/series/:id',
      handler: (ctx) => {
        const { state, render } = projection.view;
        return {
          body: render.series(
            params.found(state.series.get(params.pathInteger(ctx.params.id)), ctx.query, 'id not found'),
          ),
        };
      },
    },
  ];
}

/** GET /series: a page of series with their events, serialised. */
function listSeries(view: CatalogView, q: URLSearchParams): string {
  const { render, series } = view;
  const limit = params.limit(q, SERIES_LIST_MAX);
  const offset = params.offset(q);
  const plan = params.sortPlan(q, SERIES_SORT);
  const partition = params.statusPartition(q);
  const slugs = params.textList(q, 'slug');
  const scope = params.creator(q);
  const matches =
    slugs === undefined && scope === undefined
      ? undefined
      : (s: SeriesRecord) =>
          (slugs === undefined || slugs.includes(s.slug)) && (scope === undefined || s.creator === scope);
  return jsonArray(series.page({ plan, partition, matches, offset, limit }).map((s) => render.series(s)));
}

// GET /tags (page, sort), /tags/{id} and /tags/slug/{slug}.

import { HttpError, type Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import { jsonArray } from '../projection/render.ts';
import { TAG_SORT } from '../projection/sort-fields.ts';
import * as params from './query-params.ts';

export const TAG_LIST_MAX = 100;

export function tagRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/tags',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => listTags(view, ctx.query)) };
      },
    },
    {
      method: 'GET',
      path: '/tags/slug/:slug',
      handler: (ctx) => {
        const { state, render } = projection.view;
        const tag = state.tags.find('slug', ctx.params.slug ?? '');
        if (tag === undefined) throw new HttpError(404, 'slug not found');
        return { body: render.tag(tag) };
      },
    },
    {
      method: 'GET',
      path: '/tags/:id',
      handler: (ctx) => {
        const { state, render } = projection.view;
        const tag = state.tags.get(params.pathInteger(ctx.params.id));
        if (tag === undefined) throw new HttpError(404, 'id not found');
        return { body: render.tag(tag) };
      },
    },
  ];
}

/** GET /tags: a page of tags, serialised. */
function listTags(view: CatalogView, q: URLSearchParams): string {
  const { render, tags } = view;
  const limit = params.limit(q, TAG_LIST_MAX);
  const offset = params.offset(q);
  const plan = params.sortPlan(q, TAG_SORT);
  const slugs = params.textList(q, 'slug');
  const matches = slugs === undefined ? undefined : (t: { slug: string }) => slugs.includes(t.slug);
  return jsonArray(tags.page({ plan, matches, offset, limit }).map((t) => render.tag(t)));
}

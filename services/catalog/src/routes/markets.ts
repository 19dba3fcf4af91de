// GET /markets (filters AND-combined, sort, page), /markets/{id} (numeric id or condition id)
// and /markets/slug/{slug}: catalog markets from the projection, pre-serialised.

import type { Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import type { MarketRecord } from '../projection/records.ts';
import { jsonArray } from '../projection/render.ts';
import { MARKET_SORT } from '../projection/sort-fields.ts';
import { recordsOf } from '../projection/record-table.ts';
import { candidateIds } from './narrowing.ts';
import * as params from './query-params.ts';

export const MARKET_LIST_MAX = 500;

export function marketRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/markets',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => listMarkets(view, ctx.query)) };
      },
    },
    {
      method: 'GET',
      path: '/markets/slug/:slug',
      handler: (ctx) => {
        const { state, render } = projection.view;
        const market = params.found(state.markets.find('slug', ctx.params.slug ?? ''), ctx.query, 'slug not found');
        return { body: render.marketDetail(market) };
      },
    },
    {
      method: 'GET',
      path: '/markets/:id',
      handler: (ctx) => {
        const { state, render } = projection.view;
        const id = ctx.params.id ?? '';
        const market = /^\d+$/.test(id)
          ? state.markets.get(Number(id))
          : /^0x[0-9a-fA-F]{1,64}$/.test(id)
            ? state.markets.find('conditionId', id.toLowerCase())
            : undefined;
        return { body: render.marketDetail(params.found(market, ctx.query, 'id not found')) };
      },
    },
  ];
}

function idsOf(records: (MarketRecord | undefined)[]): Set<number> {
  const out = new Set<number>();
  for (const record of records) if (record !== undefined) out.add(record.id);
  return out;
}

/** The markets trading any of `tokens` (a scan: a token-to-market lookup of a UI, a few thousand markets). */
function marketsOfTokens(markets: Iterable<MarketRecord>, tokens: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  for (const market of markets) if (market.tokens.some((token) => tokens.has(token))) out.add(market.id);
  return out;
}

/** GET /markets: the page of markets the filters, sort and paging select, serialised. */
function listMarkets(view: CatalogView, q: URLSearchParams): string {
  const { state, render, markets } = view;
  const limit = params.limit(q, MARKET_LIST_MAX);
  const offset = params.offset(q);
  const plan = params.sortPlan(q, MARKET_SORT);
  const partition = params.statusPartition(q);
  const ids = params.integerList(q, 'id');
  const tagId = params.integer(q, 'tag_id');
  const tagSlug = params.text(q, 'tag_slug', 'tag');
  const eventId = params.integer(q, 'event_id');
  const eventSlug = params.text(q, 'event_slug', 'eventSlug');
  const conditionIds = params.textList(q, 'conditionId', 'condition_id', 'condition_ids')?.map((c) => c.toLowerCase());
  const slugs = params.textList(q, 'slug');
  const tokenIds = params.textList(q, 'clob_token_ids');

  // Each filter as a set of market ids; an unknown tag or event matches nothing.
  const none: ReadonlySet<number> = new Set<number>();
  const byTagId = tagId === undefined ? undefined : state.marketsOfTag(tagId);
  const tagBySlug = tagSlug === undefined ? undefined : state.tags.find('slug', tagSlug);
  const byTagSlug =
    tagSlug === undefined ? undefined : tagBySlug === undefined ? none : state.marketsOfTag(tagBySlug.id);
  const byEventId = eventId === undefined ? undefined : state.eventMarkets.of(eventId);
  const eventBySlug = eventSlug === undefined ? undefined : state.events.find('slug', eventSlug);
  const byEventSlug =
    eventSlug === undefined ? undefined : eventBySlug === undefined ? none : state.eventMarkets.of(eventBySlug.id);
  const byIds = ids === undefined ? undefined : new Set(ids);
  const byCondition =
    conditionIds === undefined ? undefined : idsOf(conditionIds.map((c) => state.markets.find('conditionId', c)));
  const bySlug = slugs === undefined ? undefined : idsOf(slugs.map((s) => state.markets.find('slug', s)));
  const byToken = tokenIds === undefined ? undefined : marketsOfTokens(state.markets.values(), new Set(tokenIds));
  const sets = [byTagId, byTagSlug, byEventId, byEventSlug, byIds, byCondition, bySlug, byToken].filter(
    (s) => s !== undefined,
  );
  const narrowest = candidateIds(state.markets.size, offset + limit, ...sets);

  const page = markets.page({
    plan,
    partition,
    matches: params.remainingFilter(q, sets),
    offset,
    limit,
    candidates: narrowest === undefined ? undefined : recordsOf(narrowest, state.markets),
  });
  return jsonArray(page.map((m) => render.marketList(m)));
}

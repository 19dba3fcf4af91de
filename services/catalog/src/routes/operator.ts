// The operator API (bearer token): create and update tags, series, events, markets and
// profiles, delete comments. Each write waits until this process's projection shows it and
// answers with the entity as the read API shows it; other catalog processes follow by NOTIFY.

import { ADDRESS_HEX } from '@pmx/codec';
import type { Sql } from '@pmx/db';
import { HttpError, type Hook, type Route, type RequestContext } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import {
  deleteRow,
  readOrderBookMarket,
  upsertProfile,
  WriteConflict,
  writeEntity,
  type EntityWrite,
} from '../store/catalog-writes.ts';
import type { EntityTable } from '../store/change-set.ts';
import {
  EVENT_BODY,
  MARKET_BODY,
  PROFILE_BODY,
  SERIES_BODY,
  TAG_BODY,
  bodyObject,
  isSlug,
  parseBody,
  slugify,
  type BodySpec,
} from './operator-fields.ts';
import { pathInteger } from './query-params.ts';

const CONDITION_ID = /^0x[0-9a-fA-F]{1,64}$/;

interface Kind {
  path: string;
  table: EntityTable;
  body: BodySpec;
  /** Fields a create needs, and defaults derived from what was given. */
  create: (columns: Record<string, unknown>) => void;
  render: (view: CatalogView, id: number) => string | undefined;
  tracksClosedTime?: boolean;
}

/**
 * A column a create must have, checked whether or not a slug was given (else Postgres's not-null
 * refusal would answer 500).
 */
function requireColumn(columns: Record<string, unknown>, column: string, name: string): string {
  const value = columns[column];
  if (typeof value !== 'string' || value.trim() === '') throw new HttpError(400, `${name} is required`);
  return value;
}

const KINDS: Kind[] = [
  {
    path: 'tags',
    table: 'catalog_tags',
    body: TAG_BODY,
    create: (c) => {
      const label = requireColumn(c, 'label', 'label');
      c.slug ??= slugify(label);
    },
    render: (view, id) => {
      const tag = view.state.tags.get(id);
      return tag && view.render.tag(tag);
    },
  },
  {
    path: 'series',
    table: 'catalog_series',
    body: SERIES_BODY,
    create: (c) => {
      const title = requireColumn(c, 'title', 'title');
      c.slug ??= slugify(title);
      c.ticker ??= c.slug;
    },
    render: (view, id) => {
      const series = view.state.series.get(id);
      return series && view.render.series(series);
    },
  },
  {
    path: 'events',
    table: 'catalog_events',
    body: EVENT_BODY,
    tracksClosedTime: true,
    create: (c) => {
      const title = requireColumn(c, 'title', 'title');
      c.slug ??= slugify(title);
      c.ticker ??= c.slug;
    },
    render: (view, id) => {
      const event = view.state.events.get(id);
      return event && view.render.eventDetail(event);
    },
  },
];

const MARKET_KIND: Kind = {
  path: 'markets',
  table: 'catalog_markets',
  body: MARKET_BODY,
  tracksClosedTime: true,
  create: (c) => {
    const question = requireColumn(c, 'question', 'question');
    c.slug ??= slugify(question);
  },
  render: (view, id) => {
    const market = view.state.markets.get(id);
    return market && view.render.marketDetail(market);
  },
};

export interface OperatorDeps {
  sql: Sql;
  projection: CatalogProjection;
}

export function operatorRoutes(deps: OperatorDeps, auth: Hook<object>): Route<object>[] {
  const before = [auth];
  const { sql, projection } = deps;

  /** Writes, waits for the projection, answers with the rendered entity. */
  const save = async (kind: Kind, write: EntityWrite, status: number) => {
    let result;
    try {
      result = await writeEntity(sql, { ...write, tracksClosedTime: kind.tracksClosedTime ?? false });
    } catch (error) {
      if (error instanceof WriteConflict) throw new HttpError(400, error.message);
      throw error;
    }
    if (result === undefined) throw new HttpError(404, 'id not found');
    await projection.enqueue(result.changes);
    const body = kind.render(projection.view, result.id);
    if (body === undefined) throw new Error(`${kind.table} ${result.id} was written but is not in the projection`);
    return { status, body };
  };

  /** A market's link to its order-book market: fills what the body left out from it. */
  const linkOrderBook = async (ctx: RequestContext<object>, columns: Record<string, unknown>, creating: boolean) => {
    const raw = bodyObject(ctx.json()).conditionId;
    if (raw === undefined) return;
    if (typeof raw !== 'string' || !CONDITION_ID.test(raw))
      throw new HttpError(400, 'conditionId must be a 0x-prefixed hex condition id');
    const conditionId = raw.toLowerCase();
    const market = await readOrderBookMarket(sql, conditionId);
    if (market === undefined) throw new HttpError(400, 'conditionId does not match an order-book market');
    columns.condition_id = conditionId;
    if (!creating) return;
    columns.question ??= market.question;
    // The order book takes any text as a slug; one the catalog would refuse falls back to the question's.
    columns.slug ??= isSlug(market.market_slug) ? market.market_slug : undefined;
    columns.question_id ??= market.question_id;
    columns.description ??= market.description;
    columns.image ??= market.image;
    columns.icon ??= market.icon;
    columns.end_date ??= market.end_date_iso;
    for (const key of Object.keys(columns)) if (columns[key] === undefined) delete columns[key];
  };

  const routes: Route<object>[] = [];
  for (const kind of [...KINDS, MARKET_KIND]) {
    const extra = kind === MARKET_KIND ? ['conditionId'] : [];
    routes.push(
      {
        method: 'POST',
        path: `/operator/${kind.path}`,
        options: { before },
        handler: async (ctx) => {
          const { columns, links } = parseBody(ctx.json(), kind.body, extra);
          if (kind === MARKET_KIND) await linkOrderBook(ctx, columns, true);
          kind.create(columns);
          return save(kind, { table: kind.table, columns, links }, 201);
        },
      },
      {
        method: 'PATCH',
        path: `/operator/${kind.path}/:id`,
        options: { before },
        handler: async (ctx) => {
          const id = pathInteger(ctx.params.id);
          const { columns, links } = parseBody(ctx.json(), kind.body, extra);
          if (kind === MARKET_KIND) await linkOrderBook(ctx, columns, false);
          for (const name of ['slug', 'title', 'label', 'question', 'ticker']) {
            const value = columns[name];
            if (typeof value === 'string' && value.trim() === '') throw new HttpError(400, `${name} must not be empty`);
          }
          return save(kind, { table: kind.table, id, columns, links }, 200);
        },
      },
    );
  }

  routes.push(
    {
      method: 'PUT',
      path: '/operator/profiles/:address',
      options: { before },
      handler: async (ctx) => {
        const address = ctx.params.address ?? '';
        if (!ADDRESS_HEX.test(address)) throw new HttpError(400, 'address must be a 0x-prefixed 20-byte hex address');
        const { columns } = parseBody(ctx.json(), PROFILE_BODY);
        const { id, changes } = await upsertProfile(sql, address.toLowerCase(), columns);
        await projection.enqueue(changes);
        const profile = projection.view.state.profiles.get(id);
        if (profile === undefined) throw new Error(`profile ${id} was written but is not in the projection`);
        return { body: projection.view.render.publicProfile(profile) };
      },
    },
    {
      method: 'DELETE',
      path: '/operator/comments/:id',
      options: { before },
      handler: async (ctx) => {
        const id = pathInteger(ctx.params.id);
        const replies = [...(projection.view.state.replies.get(id) ?? [])];
        const changes = await deleteRow(sql, 'catalog_comments', id);
        if (changes === undefined) throw new HttpError(404, 'id not found');
        for (const reply of replies) changes.ids.catalog_comments.add(reply);
        await projection.enqueue(changes);
        return { body: { deleted: String(id), replies: replies.length } };
      },
    },
  );
  return routes;
}

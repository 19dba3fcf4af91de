// GET /comments (top-level comments of an entity or of all, newest first, each with its
// replies), GET /comments/{id} (the replies of one comment, oldest first) and POST /comments
// (level-2 auth; replies are one level deep, a reply to a reply joins the top-level thread).

import type { Sql } from '@pmx/db';
import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyLocals } from '@pmx/auth';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import type { CatalogView } from '../projection/catalog-view.ts';
import type { CatalogState } from '../projection/catalog-state.ts';
import { entityKey, PARENT_ENTITY_TYPES, type CommentRecord, type ParentEntityType } from '../projection/records.ts';
import { jsonArray } from '../projection/render.ts';
import { insertComment } from '../store/catalog-writes.ts';
import { bodyObject } from './operator-fields.ts';
import { recordsOf } from '../projection/record-table.ts';
import * as params from './query-params.ts';

export const COMMENT_LIST_MAX = 100;
export const MAX_COMMENT_LENGTH = 2000;

const ENTITY_TYPE_MESSAGE = `must be one of ${PARENT_ENTITY_TYPES.join(', ')}`;

/** Event, Series or market, whatever the case sent. */
function entityType(value: string, name: string): ParentEntityType {
  const found = PARENT_ENTITY_TYPES.find((t) => t.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw new HttpError(400, `${name} ${ENTITY_TYPE_MESSAGE}`);
  return found;
}

/** Whether the author holds any outcome token of the entity's markets (memoised per entity). */
function holderCheck(state: CatalogState): (comment: CommentRecord) => boolean {
  const tokensByEntity = new Map<string, string[]>();
  return (comment) => {
    const held = state.holdings.get(comment.userAddress);
    if (held === undefined) return false;
    const key = entityKey(comment.parentEntityType, comment.parentEntityId);
    let tokens = tokensByEntity.get(key);
    if (tokens === undefined) {
      tokens = state
        .marketsOfEntity(comment.parentEntityType, comment.parentEntityId)
        .flatMap((id) => state.markets.get(id)?.tokens ?? []);
      tokensByEntity.set(key, tokens);
    }
    return tokens.some((token) => held.has(token));
  };
}

export function commentRoutes(
  deps: { sql: Sql; projection: CatalogProjection },
  auth: Hook<ApiKeyLocals>,
): Route<ApiKeyLocals>[] {
  const { sql, projection } = deps;
  return [
    {
      method: 'GET',
      path: '/comments',
      handler: (ctx) => {
        const view = projection.view;
        return { body: view.cachedBody(ctx.path, ctx.rawQuery, () => listComments(view, ctx.query)) };
      },
    },
    {
      method: 'GET',
      path: '/comments/:id',
      handler: (ctx) => {
        const { state, render } = projection.view;
        const limit = params.limit(ctx.query, COMMENT_LIST_MAX);
        const offset = params.offset(ctx.query);
        const comment = state.comments.get(params.pathInteger(ctx.params.id));
        if (comment === undefined) throw new HttpError(404, 'id not found');
        return {
          body: jsonArray(
            render
              .repliesOf(comment)
              .slice(offset, offset + limit)
              .map((r) => render.reply(r)),
          ),
        };
      },
    },
    {
      method: 'POST',
      path: '/comments',
      options: { before: [auth] },
      handler: async (ctx) => {
        const body = bodyObject(ctx.json());
        for (const key of Object.keys(body)) {
          if (!['body', 'parentEntityType', 'parentEntityID', 'parentCommentID'].includes(key))
            throw new HttpError(400, `unknown field ${key}`);
        }
        const text = body.body;
        if (typeof text !== 'string' || text.trim() === '') throw new HttpError(400, 'body is required');
        // Characters as a reader counts them (code points), not UTF-16 units: an emoji is one.
        if ([...text].length > MAX_COMMENT_LENGTH)
          throw new HttpError(400, `body is too long (at most ${MAX_COMMENT_LENGTH} characters)`);
        if (body.parentEntityType === undefined) throw new HttpError(400, 'parentEntityType is required');
        if (typeof body.parentEntityType !== 'string')
          throw new HttpError(400, `parentEntityType ${ENTITY_TYPE_MESSAGE}`);
        const type = entityType(body.parentEntityType, 'parentEntityType');
        const entityId = integerField(body.parentEntityID, 'parentEntityID');
        if (entityId === undefined) throw new HttpError(400, 'parentEntityID is required');

        const state = projection.view.state;
        if (!state.entityExists(type, entityId)) throw new HttpError(404, 'id not found');
        let parentCommentId: number | null = null;
        let replyAddress = '';
        const parentId = integerField(body.parentCommentID, 'parentCommentID');
        if (parentId !== undefined) {
          const parent = state.comments.get(parentId);
          if (parent === undefined) throw new HttpError(404, 'id not found');
          if (parent.parentEntityType !== type || parent.parentEntityId !== entityId) {
            throw new HttpError(400, 'parentCommentID belongs to another entity');
          }
          parentCommentId = parent.parentCommentId ?? parent.id;
          replyAddress = parent.userAddress;
        }
        const address = ctx.locals.apiKey!.address;
        const { id, changes } = await insertComment(sql, {
          body: text,
          parentEntityType: type,
          parentEntityId: entityId,
          parentCommentId,
          userAddress: address,
          replyAddress,
        });
        await projection.enqueue(changes);
        const created = projection.view.state.comments.get(id);
        if (created === undefined) throw new Error(`comment ${id} was written but is not in the projection`);
        return { status: 201, body: projection.view.render.reply(created) };
      },
    },
  ];
}

/** GET /comments: a page of top-level comments with their replies, serialised. */
function listComments(view: CatalogView, q: URLSearchParams): string {
  const { state, render, threads, commentSort } = view;
  const limit = params.limit(q, COMMENT_LIST_MAX);
  const offset = params.offset(q);
  const newestFirst = { fields: ['createdAt'], keys: [commentSort.createdAt!], ascending: false };
  const plan = params.sortPlan(q, commentSort, 'order', newestFirst);
  const holdersOnly = params.bool(q, 'holders_only') ?? false;
  const typeText = params.text(q, 'parent_entity_type');
  const idText = params.text(q, 'parent_entity_id');
  const eventSlug = params.text(q, 'event_slug');

  let entity: { type: ParentEntityType; id: number } | undefined;
  if (typeText !== undefined || idText !== undefined) {
    if (typeText === undefined) throw new HttpError(400, 'parent_entity_type is required');
    if (idText === undefined) throw new HttpError(400, 'parent_entity_id is required');
    entity = {
      type: entityType(typeText, 'parent_entity_type'),
      id: params.nonNegativeInteger(idText, 'parent_entity_id'),
    };
    if (!state.entityExists(entity.type, entity.id)) throw new HttpError(404, 'id not found');
  }
  if (eventSlug !== undefined) {
    const event = state.events.find('slug', eventSlug);
    if (event === undefined) throw new HttpError(404, 'slug not found');
    // Both given: AND — a different entity than the slug's event matches nothing.
    if (entity !== undefined && (entity.type !== 'Event' || entity.id !== event.id)) return '[]';
    entity = { type: 'Event', id: event.id };
  }

  const matches = holdersOnly ? holderCheck(state) : undefined;
  const candidates =
    entity === undefined
      ? undefined
      : recordsOf(state.threads.get(entityKey(entity.type, entity.id)) ?? [], state.comments);
  const page = threads.page({ plan, matches, offset, limit, candidates });
  return jsonArray(page.map((c) => render.comment(c)));
}

/** An id given as a JSON integer or a string of digits; undefined when absent. */
function integerField(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  throw new HttpError(400, `${name} must be a positive integer`);
}

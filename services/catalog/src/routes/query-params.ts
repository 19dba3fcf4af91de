// Reading and validating the catalog's query parameters once, with the contract's errors:
// a bad value is `bad request` naming the parameter; a missing required one is
// `<name> is required`. An empty value (`?active=`) counts as absent.

import { HttpError } from '@pmx/http';
import type { Partition, SortKey, SortPlan } from '../projection/list-query.ts';
import type { SortFields } from '../projection/sort-fields.ts';

export const DEFAULT_LIMIT = 20;
// Any run of digits: a huge limit is capped and a huge offset or id simply matches nothing.
const INTEGER = /^\d+$/;
const MAX_TEXT = 500;

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** The first non-empty value among the names (aliases), trimmed. */
export function text(query: URLSearchParams, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = query.get(name)?.trim();
    if (value !== undefined && value !== '') {
      if (value.length > MAX_TEXT) throw badRequest(`${name} is too long (at most ${MAX_TEXT} characters)`);
      return value;
    }
  }
  return undefined;
}

export function required(query: URLSearchParams, name: string): string {
  const value = text(query, name);
  if (value === undefined) throw badRequest(`${name} is required`);
  return value;
}

/** Every non-empty value of the names, comma-separated values split too (`id=1,2&id=3`). */
export function textList(query: URLSearchParams, ...names: string[]): string[] | undefined {
  const out: string[] = [];
  for (const name of names) {
    for (const raw of query.getAll(name)) {
      for (const part of raw.split(',')) {
        const value = part.trim();
        if (value.length > MAX_TEXT) throw badRequest(`${name} is too long (at most ${MAX_TEXT} characters)`);
        if (value !== '') out.push(value);
      }
    }
  }
  return out.length === 0 ? undefined : out;
}

export function bool(query: URLSearchParams, name: string): boolean | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  const word = value.toLowerCase();
  if (word === 'true' || word === '1') return true;
  if (word === 'false' || word === '0') return false;
  throw badRequest(`${name} must be true or false`);
}

export function nonNegativeInteger(value: string, name: string): number {
  if (!INTEGER.test(value)) throw badRequest(`${name} must be a non-negative integer`);
  return Number(value);
}

export function integer(query: URLSearchParams, name: string): number | undefined {
  const value = text(query, name);
  return value === undefined ? undefined : nonNegativeInteger(value, name);
}

export function integerList(query: URLSearchParams, name: string): number[] | undefined {
  return textList(query, name)?.map((value) => nonNegativeInteger(value, name));
}

/** `limit`: default 20, silently capped at the list's maximum. */
export function limit(query: URLSearchParams, max: number): number {
  return Math.min(integer(query, 'limit') ?? DEFAULT_LIMIT, max);
}

export function offset(query: URLSearchParams): number {
  return integer(query, 'offset') ?? 0;
}

/** A path id that must be an integer (events, series, tags, comments). */
export function pathInteger(value: string | undefined, name = 'id'): number {
  if (value === undefined || value === '') throw badRequest(`${name} is required`);
  if (!INTEGER.test(value)) throw badRequest(`${name} must be an integer`);
  // Ids are Postgres bigints: one past them names nothing (and Postgres would answer it with a 500).
  if (value.length > 18) throw new HttpError(404, 'id not found');
  return Number(value);
}

/** `creator`, compared case-insensitively (addresses are stored lower-case). */
export function creator(query: URLSearchParams): string | undefined {
  return text(query, 'creator')?.toLowerCase();
}

/**
 * A single result, scoped by `creator` (the record must have been listed by that creator):
 * missing or out of scope is the contract's 404 with `id not found` or `slug not found`.
 */
export function found<T extends { creator: string }>(
  record: T | undefined,
  query: URLSearchParams,
  message: 'id not found' | 'slug not found',
): T {
  const scope = creator(query);
  if (record === undefined || (scope !== undefined && record.creator !== scope)) throw new HttpError(404, message);
  return record;
}

/**
 * `order` (comma-separated camelCase fields of the list's documented set) and `ascending`
 * (default false). No order: by id, ascending unless `ascending=false`.
 */
export function sortPlan<T>(
  query: URLSearchParams,
  fields: SortFields<T>,
  orderName = 'order',
  defaultOrder?: SortPlan<T>,
): SortPlan<T> {
  const ascending = bool(query, 'ascending');
  const raw = text(query, orderName);
  if (raw === undefined) {
    if (defaultOrder !== undefined) return ascending === undefined ? defaultOrder : { ...defaultOrder, ascending };
    return { fields: ['id'], keys: [fields.id!], ascending: ascending ?? true };
  }
  const names: string[] = [];
  for (const part of raw.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    if (!Object.hasOwn(fields, name)) throw badRequest('order fields are not valid');
    if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) throw badRequest('order fields are not valid');
  const keys: SortKey<T>[] = names.map((name) => fields[name]!);
  return { fields: names, keys, ascending: ascending ?? false };
}

type Flagged = { active: boolean; closed: boolean; archived: boolean };

/**
 * `active`, `closed` and `archived` (each only when given) as a list partition: 27 combinations
 * at most, so presorted views are cached per combination.
 */
export function statusPartition<T extends Flagged>(query: URLSearchParams): Partition<T> | undefined {
  const active = bool(query, 'active');
  const closed = bool(query, 'closed');
  const archived = bool(query, 'archived');
  if (active === undefined && closed === undefined && archived === undefined) return undefined;
  return {
    key: `${active}/${closed}/${archived}`,
    test: (record) =>
      (active === undefined || record.active === active) &&
      (closed === undefined || record.closed === closed) &&
      (archived === undefined || record.archived === archived),
  };
}

/**
 * The remaining filters of a list: `creator` (any value, so not a partition) and id sets that
 * must all hold the record's id; undefined when there are none.
 */
export function remainingFilter(
  query: URLSearchParams,
  sets: readonly ReadonlySet<number>[],
): ((record: { id: number; creator: string }) => boolean) | undefined {
  const scope = creator(query);
  if (sets.length === 0 && scope === undefined) return undefined;
  return (record) => (scope === undefined || record.creator === scope) && sets.every((set) => set.has(record.id));
}

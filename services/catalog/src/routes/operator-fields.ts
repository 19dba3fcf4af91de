// Operator request bodies: camelCase fields (the names the read API shows) validated and mapped
// to columns, and `…Ids` arrays mapped to link replacements. Unknown fields are refused, so a
// typo does not silently do nothing.

import { ADDRESS_HEX, parseIsoDate } from '@pmx/codec';
import { HttpError } from '@pmx/http';
import type { LinkReplacement } from '../store/catalog-writes.ts';
import type { LinkTable } from '../store/catalog-reads.ts';

type FieldKind = 'text' | 'slug' | 'bool' | 'date' | 'amount' | 'ratio' | 'object' | 'outcomes' | 'address' | 'creator';

export interface FieldSpec {
  column: string;
  kind: FieldKind;
}

export interface LinkSpec {
  table: LinkTable;
  side: 0 | 1;
}

export interface BodySpec {
  fields: Readonly<Record<string, FieldSpec>>;
  links?: Readonly<Record<string, LinkSpec>>;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,198}[a-z0-9])?$/;

/** A slug the catalog takes: lower-case letters, digits and dashes (what `?slug=` lists can name). */
export function isSlug(text: string): boolean {
  return SLUG.test(text);
}
/** An amount given as a string: plain decimal digits, with an optional fraction. */
const DECIMAL = /^\d{1,19}(?:\.\d{1,18})?$/;
const MAX_TEXT = 20_000;
const MAX_LINKS = 5_000;

function bad(message: string): HttpError {
  return new HttpError(400, message);
}

export function bodyObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('the body must be a JSON object');
  return raw as Record<string, unknown>;
}

function fieldValue(name: string, kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      if (typeof value !== 'string' || value.length > MAX_TEXT)
        throw bad(`${name} must be a string of at most ${MAX_TEXT} characters`);
      return value;
    case 'slug':
      if (typeof value !== 'string' || !SLUG.test(value))
        throw bad(`${name} must be lower-case letters, digits and dashes`);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw bad(`${name} must be true or false`);
      return value;
    case 'date': {
      if (value === null) return null;
      const date = typeof value === 'string' ? parseIsoDate(value) : undefined;
      if (date === undefined) throw bad(`${name} must be an ISO 8601 date-time of a real day, in UTC years 1000–9999`);
      return date;
    }
    case 'amount': {
      // A decimal string or a number: Number() alone would also take "0x10", "0b1", "1e3" or " 5 ".
      const number = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > 1e18)
        throw bad(`${name} must be a non-negative number`);
      return number;
    }
    case 'ratio':
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw bad(`${name} must be a number from 0 to 1`);
      return value;
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw bad(`${name} must be a JSON object`);
      return value;
    case 'outcomes':
      if (
        !Array.isArray(value) ||
        value.length < 2 ||
        value.length > 20 ||
        value.some((v) => typeof v !== 'string' || v === '' || v.length > 200)
      ) {
        throw bad(`${name} must be 2 to 20 non-empty strings`);
      }
      return value;
    case 'address':
      if (typeof value !== 'string' || !ADDRESS_HEX.test(value))
        throw bad(`${name} must be a 0x-prefixed 20-byte hex address`);
      return value.toLowerCase();
    case 'creator':
      if (typeof value !== 'string' || value.length > 200)
        throw bad(`${name} must be a string of at most 200 characters`);
      return value.trim().toLowerCase();
  }
}

function idList(name: string, value: unknown): number[] {
  if (
    !Array.isArray(value) ||
    value.length > MAX_LINKS ||
    value.some((v) => !Number.isSafeInteger(v) || (v as number) <= 0)
  ) {
    throw bad(`${name} must be an array of positive integer ids`);
  }
  return [...new Set(value as number[])];
}

export interface ParsedBody {
  columns: Record<string, unknown>;
  links: LinkReplacement[];
  /** The camelCase names given, for create-time checks. */
  given: Set<string>;
}

export function parseBody(raw: unknown, spec: BodySpec, extra: readonly string[] = []): ParsedBody {
  const body = bodyObject(raw);
  const columns: Record<string, unknown> = {};
  const links: LinkReplacement[] = [];
  const given = new Set<string>();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    // Own names only: `toString`, `constructor` or `__proto__` would find Object.prototype's
    // members, which would go on to the SQL as a column named `undefined` (a 500).
    const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
    const link = spec.links !== undefined && Object.hasOwn(spec.links, name) ? spec.links[name] : undefined;
    if (field !== undefined) columns[field.column] = fieldValue(name, field.kind, value);
    else if (link !== undefined) links.push({ table: link.table, side: link.side, ids: idList(name, value) });
    else if (!extra.includes(name)) throw bad(`unknown field ${name}`);
    given.add(name);
  }
  return { columns, links, given };
}

/** "Will BTC hit $100k?" → "will-btc-hit-100k". */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 150)
    .replace(/-+$/, '');
  return slug === '' ? 'untitled' : slug;
}

const common = {
  image: { column: 'image', kind: 'text' },
  icon: { column: 'icon', kind: 'text' },
  active: { column: 'active', kind: 'bool' },
  closed: { column: 'closed', kind: 'bool' },
  archived: { column: 'archived', kind: 'bool' },
  creator: { column: 'creator', kind: 'creator' },
} as const satisfies Record<string, FieldSpec>;

export const TAG_BODY: BodySpec = {
  fields: {
    label: { column: 'label', kind: 'text' },
    slug: { column: 'slug', kind: 'slug' },
    requiresTranslation: { column: 'requires_translation', kind: 'bool' },
  },
};

export const SERIES_BODY: BodySpec = {
  fields: {
    ...common,
    title: { column: 'title', kind: 'text' },
    ticker: { column: 'ticker', kind: 'text' },
    slug: { column: 'slug', kind: 'slug' },
    seriesType: { column: 'series_type', kind: 'text' },
    recurrence: { column: 'recurrence', kind: 'text' },
  },
  links: { eventIds: { table: 'catalog_series_events', side: 0 } },
};

export const EVENT_BODY: BodySpec = {
  fields: {
    ...common,
    title: { column: 'title', kind: 'text' },
    ticker: { column: 'ticker', kind: 'text' },
    slug: { column: 'slug', kind: 'slug' },
    description: { column: 'description', kind: 'text' },
    resolutionSource: { column: 'resolution_source', kind: 'text' },
    startDate: { column: 'start_date', kind: 'date' },
    endDate: { column: 'end_date', kind: 'date' },
    eventMetadata: { column: 'event_metadata', kind: 'object' },
  },
  links: {
    tagIds: { table: 'catalog_event_tags', side: 0 },
    marketIds: { table: 'catalog_event_markets', side: 0 },
    seriesIds: { table: 'catalog_series_events', side: 1 },
  },
};

export const MARKET_BODY: BodySpec = {
  fields: {
    ...common,
    question: { column: 'question', kind: 'text' },
    slug: { column: 'slug', kind: 'slug' },
    questionID: { column: 'question_id', kind: 'text' },
    description: { column: 'description', kind: 'text' },
    resolutionSource: { column: 'resolution_source', kind: 'text' },
    startDate: { column: 'start_date', kind: 'date' },
    endDate: { column: 'end_date', kind: 'date' },
    outcomes: { column: 'outcomes', kind: 'outcomes' },
    volume: { column: 'volume', kind: 'amount' },
    volume24hr: { column: 'volume_24hr', kind: 'amount' },
    liquidity: { column: 'liquidity', kind: 'amount' },
    competitive: { column: 'competitive', kind: 'ratio' },
  },
  links: {
    eventIds: { table: 'catalog_event_markets', side: 1 },
    tagIds: { table: 'catalog_market_tags', side: 0 },
  },
};

export const PROFILE_BODY: BodySpec = {
  fields: {
    baseAddress: { column: 'base_address', kind: 'address' },
    name: { column: 'name', kind: 'text' },
    pseudonym: { column: 'pseudonym', kind: 'text' },
    bio: { column: 'bio', kind: 'text' },
    profileImage: { column: 'profile_image', kind: 'text' },
    xUsername: { column: 'x_username', kind: 'text' },
    displayUsernamePublic: { column: 'display_username_public', kind: 'bool' },
    verifiedBadge: { column: 'verified_badge', kind: 'bool' },
    isMod: { column: 'is_mod', kind: 'bool' },
    isCreator: { column: 'is_creator', kind: 'bool' },
  },
};

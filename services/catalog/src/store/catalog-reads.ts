// The queries the projections are built from: every row of a kind at start (ids undefined), or
// the rows whose ids a change notification named. Rows become records here.

import type { Sql } from '@pmx/db';
import type {
  CommentRecord,
  EventRecord,
  MarketRecord,
  ParentEntityType,
  ProfileRecord,
  SeriesRecord,
  TagRecord,
} from '../projection/records.ts';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());
const isoNow = (value: Date): string => value.toISOString();

function byIds(sql: Sql, column: string, ids: readonly number[] | undefined) {
  return ids === undefined ? sql`true` : sql`${sql(column)} = ANY(${ids as number[]}::bigint[])`;
}

export async function readTags(sql: Sql, ids?: readonly number[]): Promise<TagRecord[]> {
  const rows = await sql`SELECT * FROM catalog_tags WHERE ${byIds(sql, 'id', ids)}`;
  return rows.map((r) => ({
    id: Number(r.id),
    label: r.label,
    slug: r.slug,
    requiresTranslation: r.requires_translation,
    createdAt: isoNow(r.created_at),
    updatedAt: isoNow(r.updated_at),
    cache: {},
  }));
}

export async function readSeries(sql: Sql, ids?: readonly number[]): Promise<SeriesRecord[]> {
  const rows = await sql`SELECT * FROM catalog_series WHERE ${byIds(sql, 'id', ids)}`;
  return rows.map((r) => ({
    id: Number(r.id),
    ticker: r.ticker,
    slug: r.slug,
    title: r.title,
    seriesType: r.series_type,
    recurrence: r.recurrence,
    image: r.image,
    icon: r.icon,
    active: r.active,
    closed: r.closed,
    archived: r.archived,
    creator: r.creator,
    createdAt: isoNow(r.created_at),
    updatedAt: isoNow(r.updated_at),
    cache: {},
  }));
}

export async function readEvents(sql: Sql, ids?: readonly number[]): Promise<EventRecord[]> {
  const rows = await sql`SELECT * FROM catalog_events WHERE ${byIds(sql, 'id', ids)}`;
  return rows.map((r) => ({
    id: Number(r.id),
    ticker: r.ticker,
    slug: r.slug,
    title: r.title,
    description: r.description,
    resolutionSource: r.resolution_source,
    startDate: iso(r.start_date),
    creationDate: isoNow(r.creation_date),
    endDate: iso(r.end_date),
    image: r.image,
    icon: r.icon,
    active: r.active,
    closed: r.closed,
    archived: r.archived,
    closedTime: iso(r.closed_time),
    creator: r.creator,
    eventMetadata: r.event_metadata,
    createdAt: isoNow(r.created_at),
    updatedAt: isoNow(r.updated_at),
    cache: {},
  }));
}

/** Catalog markets with what their order-book market contributes (outcomes, tokens, tick). */
export async function readMarkets(sql: Sql, ids?: readonly number[]): Promise<MarketRecord[]> {
  const rows = await sql`
    SELECT c.*, m.token0, m.token1, m.outcome0, m.outcome1, m.tick_size, m.min_order_size, m.neg_risk, m.accepting_orders,
           m.state, m.payouts::text[] AS payouts, m.closed_at
    FROM catalog_markets c LEFT JOIN markets m ON m.condition_id = c.condition_id
    WHERE ${byIds(sql, 'c.id', ids)}`;
  return rows.map((r) => {
    const linked = r.token0 !== null;
    return {
      id: Number(r.id),
      conditionId: r.condition_id,
      question: r.question,
      slug: r.slug,
      questionId: r.question_id,
      description: r.description,
      resolutionSource: r.resolution_source,
      image: r.image,
      icon: r.icon,
      startDate: iso(r.start_date),
      endDate: iso(r.end_date),
      outcomes: linked ? [r.outcome0, r.outcome1] : r.outcomes,
      tokens: linked ? [r.token0, r.token1] : [],
      tickSize: linked ? r.tick_size : null,
      minOrderSize: linked ? Number(r.min_order_size) / 1_000_000 : null,
      negRisk: linked ? r.neg_risk : false,
      acceptingOrders: linked ? r.accepting_orders : false,
      resolvedPrices: r.payouts === null ? null : r.payouts.map((p: string) => String(Number(p) / 1_000_000)),
      active: r.active,
      closed: r.closed || r.state === 'closed' || r.state === 'resolved',
      archived: r.archived,
      closedTime: iso(r.closed_time ?? r.closed_at),
      creator: r.creator,
      volume: Number(r.volume),
      volume24hr: Number(r.volume_24hr),
      liquidity: Number(r.liquidity),
      competitive: r.competitive,
      createdAt: isoNow(r.created_at),
      updatedAt: isoNow(r.updated_at),
      cache: {},
    };
  });
}

export async function readProfiles(sql: Sql, ids?: readonly number[]): Promise<ProfileRecord[]> {
  const rows = await sql`SELECT * FROM catalog_profiles WHERE ${byIds(sql, 'id', ids)}`;
  return rows.map((r) => ({
    id: Number(r.id),
    proxyWallet: r.proxy_wallet,
    baseAddress: r.base_address,
    name: r.name,
    pseudonym: r.pseudonym,
    bio: r.bio,
    profileImage: r.profile_image,
    xUsername: r.x_username,
    displayUsernamePublic: r.display_username_public,
    verifiedBadge: r.verified_badge,
    isMod: r.is_mod,
    isCreator: r.is_creator,
    createdAt: isoNow(r.created_at),
    updatedAt: isoNow(r.updated_at),
    cache: {},
  }));
}

export async function readComments(sql: Sql, ids?: readonly number[]): Promise<CommentRecord[]> {
  const rows = await sql`SELECT * FROM catalog_comments WHERE ${byIds(sql, 'id', ids)}`;
  return rows.map((r) => ({
    id: Number(r.id),
    body: r.body,
    parentEntityType: r.parent_entity_type as ParentEntityType,
    parentEntityId: Number(r.parent_entity_id),
    parentCommentId: r.parent_comment_id === null ? null : Number(r.parent_comment_id),
    userAddress: r.user_address,
    replyAddress: r.reply_address,
    reactions: Array.isArray(r.reactions) ? r.reactions : [],
    reactionCount: r.reaction_count,
    reportCount: r.report_count,
    createdAt: isoNow(r.created_at),
    updatedAt: isoNow(r.updated_at),
    cache: {},
  }));
}

/** The four link tables, each a pair of entity ids. */
export const LINK_TABLES = {
  catalog_event_markets: ['event_id', 'market_id'],
  catalog_event_tags: ['event_id', 'tag_id'],
  catalog_market_tags: ['market_id', 'tag_id'],
  catalog_series_events: ['series_id', 'event_id'],
} as const;
export type LinkTable = keyof typeof LINK_TABLES;

export type LinkPair = readonly [number, number];

/** All pairs of a link table, or which of the given pairs exist now. */
export async function readLinks(sql: Sql, table: LinkTable, pairs?: readonly LinkPair[]): Promise<LinkPair[]> {
  const [a, b] = LINK_TABLES[table];
  const rows =
    pairs === undefined
      ? await sql`SELECT ${sql(a)} AS a, ${sql(b)} AS b FROM ${sql(table)}`
      : await sql`
          SELECT l.${sql(a)} AS a, l.${sql(b)} AS b
          FROM unnest(${pairs.map((p) => p[0])}::bigint[], ${pairs.map((p) => p[1])}::bigint[]) AS p(a, b)
          JOIN ${sql(table)} l ON l.${sql(a)} = p.a AND l.${sql(b)} = p.b`;
  return rows.map((r) => [Number(r.a), Number(r.b)] as const);
}

// Loads a generated demo catalog into Postgres in one transaction: multi-row inserts in chunks,
// the order-book `markets` rows first (so the clob trades them after its next start), change
// notifications off for the load and one `reload` at commit. Idempotent: a catalog that already
// holds the demo's events is left alone; tags and series that exist by slug are reused.

import type { Sql, TransactionSql as Tx } from '@pmx/db';
import { RELOAD_PAYLOAD, CHANGE_CHANNEL } from '../store/change-set.ts';
import type { DemoCatalog } from './demo-catalog.ts';

/** Advisory-lock key of demo loads: the ASCII bytes of "pmxdemo". */
const DEMO_LOCK_KEY = BigInt('0x706d7864656d6f').toString();
const MAX_PARAMETERS = 60_000;
const MIN_ORDER_SIZE = 5_000_000;

export interface DemoLoadResult {
  loaded: boolean;
  counts: Record<string, number>;
}

async function insertChunked(tx: Tx, table: string, rows: Record<string, unknown>[], suffix = tx``): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let i = 0; i < rows.length; i += size) {
    await tx`INSERT INTO ${tx(table)} ${tx(rows.slice(i, i + size) as Record<string, any>[], columns)} ${suffix}`;
  }
}

/** Inserts by slug, reusing rows that exist: demo id → real id. */
async function upsertBySlug(
  tx: Tx,
  table: string,
  rows: ({ slug: string } & Record<string, unknown>)[],
  localIds: number[],
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  const columns = Object.keys(rows[0] ?? {});
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)));
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const returned = await tx`
      INSERT INTO ${tx(table)} ${tx(chunk as Record<string, any>[], columns)}
      ON CONFLICT (slug) DO UPDATE SET slug = EXCLUDED.slug
      RETURNING id, slug`;
    const bySlug = new Map(returned.map((r) => [r.slug as string, Number(r.id)]));
    chunk.forEach((row, j) => ids.set(localIds[i + j]!, bySlug.get(row.slug)!));
  }
  return ids;
}

async function maxId(tx: Tx, table: string): Promise<number> {
  const [row] = await tx`SELECT coalesce(max(id), 0)::bigint AS max FROM ${tx(table)}`;
  return Number(row!.max);
}

export async function loadDemoCatalog(sql: Sql, demo: DemoCatalog): Promise<DemoLoadResult> {
  const counts = {
    tags: demo.tags.length,
    series: demo.series.length,
    events: demo.events.length,
    markets: demo.markets.length,
    profiles: demo.profiles.length,
    comments: demo.comments.length,
  };
  const probe = demo.events.slice(0, 20).map((e) => e.slug);
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${DEMO_LOCK_KEY}::bigint)`;
    const present = await tx`SELECT 1 FROM catalog_events WHERE slug = ANY(${probe}::text[]) LIMIT 1`;
    if (present.length > 0) return { loaded: false, counts };
    await tx`SET LOCAL pmx.catalog_notify = 'off'`;
    await tx`LOCK TABLE catalog_events, catalog_markets, catalog_profiles, catalog_comments IN SHARE ROW EXCLUSIVE MODE`;

    const tagIds = await upsertBySlug(
      tx,
      'catalog_tags',
      demo.tags.map((t) => ({ label: t.label, slug: t.slug, created_at: t.createdAt, updated_at: t.createdAt })),
      demo.tags.map((t) => t.id),
    );
    const seriesIds = await upsertBySlug(
      tx,
      'catalog_series',
      demo.series.map((s) => ({
        ticker: s.ticker,
        slug: s.slug,
        title: s.title,
        series_type: 'single',
        recurrence: s.recurrence,
        image: `https://static.pmx.dev/series/${s.slug}.png`,
        icon: `https://static.pmx.dev/series/${s.slug}-icon.png`,
        created_at: s.createdAt,
        updated_at: s.createdAt,
      })),
      demo.series.map((s) => s.id),
    );
    const eventBase = await maxId(tx, 'catalog_events');
    const marketBase = await maxId(tx, 'catalog_markets');
    const profileBase = await maxId(tx, 'catalog_profiles');
    const commentBase = await maxId(tx, 'catalog_comments');
    const eventById = new Map(demo.events.map((e) => [e.id, e]));

    await insertChunked(
      tx,
      'markets',
      demo.markets.map((m) => {
        const event = eventById.get(m.eventId)!;
        return {
          condition_id: m.conditionId,
          question: m.question,
          token0: m.tokens[0],
          token1: m.tokens[1],
          outcome0: m.outcomes[0],
          outcome1: m.outcomes[1],
          tick_size: m.tickSize,
          min_order_size: MIN_ORDER_SIZE,
          neg_risk: m.negRisk,
          question_id: m.questionId,
          description: event.description,
          market_slug: m.slug,
          end_date_iso: event.endDate,
          icon: event.icon,
          image: event.image,
          active: true,
          closed: event.closed,
          accepting_orders: !event.closed,
          state: event.closed ? 'closed' : 'open',
          closed_at: event.closed ? event.endDate : null,
          created_at: event.createdAt,
        };
      }),
      tx`ON CONFLICT DO NOTHING`,
    );
    await insertChunked(
      tx,
      'catalog_events',
      demo.events.map((e) => ({
        id: eventBase + e.id,
        ticker: e.ticker,
        slug: e.slug,
        title: e.title,
        description: e.description,
        resolution_source: e.resolutionSource,
        start_date: e.createdAt,
        creation_date: e.createdAt,
        end_date: e.endDate,
        image: e.image,
        icon: e.icon,
        active: true,
        closed: e.closed,
        archived: e.archived,
        closed_time: e.closed ? e.endDate : null,
        created_at: e.createdAt,
        updated_at: e.closed ? e.endDate : e.createdAt,
      })),
    );
    await insertChunked(
      tx,
      'catalog_markets',
      demo.markets.map((m) => {
        const e = eventById.get(m.eventId)!;
        return {
          id: marketBase + m.id,
          condition_id: m.conditionId,
          question: m.question,
          slug: m.slug,
          question_id: m.questionId,
          description: e.description,
          resolution_source: e.resolutionSource,
          image: e.image,
          icon: e.icon,
          start_date: e.createdAt,
          end_date: e.endDate,
          active: true,
          closed: e.closed,
          archived: e.archived,
          closed_time: e.closed ? e.endDate : null,
          volume: m.volume,
          volume_24hr: m.volume24hr,
          liquidity: m.liquidity,
          competitive: m.competitive,
          created_at: e.createdAt,
          updated_at: e.closed ? e.endDate : e.createdAt,
        };
      }),
    );
    await insertChunked(
      tx,
      'catalog_event_markets',
      demo.markets.map((m) => ({ event_id: eventBase + m.eventId, market_id: marketBase + m.id })),
    );
    await insertChunked(
      tx,
      'catalog_event_tags',
      demo.events.flatMap((e) => e.tagIds.map((t) => ({ event_id: eventBase + e.id, tag_id: tagIds.get(t)! }))),
      tx`ON CONFLICT DO NOTHING`,
    );
    await insertChunked(
      tx,
      'catalog_series_events',
      demo.events
        .filter((e) => e.seriesId !== undefined)
        .map((e) => ({ series_id: seriesIds.get(e.seriesId!)!, event_id: eventBase + e.id })),
      tx`ON CONFLICT DO NOTHING`,
    );
    await insertChunked(
      tx,
      'catalog_profiles',
      demo.profiles.map((p) => ({
        id: profileBase + p.id,
        proxy_wallet: p.proxyWallet,
        base_address: p.baseAddress,
        name: p.name,
        pseudonym: p.pseudonym,
        bio: p.bio,
        profile_image: p.profileImage,
        x_username: p.xUsername,
        display_username_public: p.displayUsernamePublic,
        verified_badge: p.verifiedBadge,
        is_mod: p.isMod,
        is_creator: p.isCreator,
        created_at: p.createdAt,
        updated_at: p.createdAt,
      })),
    );
    const entityBase = { Event: eventBase, market: marketBase, Series: 0 } as const;
    await insertChunked(
      tx,
      'catalog_comments',
      demo.comments.map((c) => ({
        id: commentBase + c.id,
        body: c.body,
        parent_entity_type: c.parentEntityType,
        parent_entity_id:
          c.parentEntityType === 'Series'
            ? seriesIds.get(c.parentEntityId)!
            : entityBase[c.parentEntityType] + c.parentEntityId,
        parent_comment_id: c.parentCommentId === null ? null : commentBase + c.parentCommentId,
        user_address: c.userAddress,
        reply_address: c.replyAddress,
        reaction_count: c.reactionCount,
        report_count: c.reportCount,
        created_at: c.createdAt,
        updated_at: c.createdAt,
      })),
    );
    for (const table of ['catalog_events', 'catalog_markets', 'catalog_profiles', 'catalog_comments']) {
      await tx`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 1) FROM ${tx(table)}))`;
    }
    await tx`SELECT pg_notify(${CHANGE_CHANNEL}, ${RELOAD_PAYLOAD})`;
    return { loaded: true, counts };
  });
}

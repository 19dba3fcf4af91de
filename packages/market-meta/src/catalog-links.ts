// The catalog's facts about each order-book market (the catalog market linked to it by condition
// id, its event, its tags), read from the catalog tables in the same Postgres and followed through
// the catalog's `pmx_catalog` notifications: what the clob's market listing and the account data
// show beside a market's trading fields.

import { createHash } from 'node:crypto';
import type { Sql } from '@pmx/db';
import { logger } from '@pmx/config';

export interface CatalogEventSummary {
  id: string;
  slug: string;
  title: string;
  ticker: string;
  description: string;
}

export interface CatalogLink {
  conditionId: string;
  /** The catalog market's numeric id. */
  catalogId: number;
  question: string;
  slug: string;
  description: string;
  resolutionSource: string;
  /** The market's own, else its event's ('' when neither has one). */
  icon: string;
  image: string;
  /** ISO 8601; the market's own, else its event's; null when neither has one. */
  startDate: string | null;
  endDate: string | null;
  /** The event the market belongs to (the lowest id when linked to several). */
  event: CatalogEventSummary | null;
  /** Labels of the market's tags and its event's, each once, by tag id. */
  tags: string[];
  /**
   * The neg-risk group of the market: the markets of one neg-risk event share it. The catalog keeps
   * no such id, so it is made from the event's id (0x + SHA-256 of `pmx-neg-risk:<event id>`);
   * '' for a market that is not neg-risk or has no event.
   */
  negRiskMarketId: string;
}

/** Payload tables of `pmx_catalog` whose changes can change a link (comments, profiles, series cannot). */
const LINK_SOURCES = new Set([
  'catalog_markets',
  'catalog_events',
  'catalog_tags',
  'catalog_event_markets',
  'catalog_event_tags',
  'catalog_market_tags',
]);

export const CATALOG_CHANNEL = 'pmx_catalog';

/** Whether a `pmx_catalog` payload ("<table>:<key>…" or "reload") can change some market's link. */
export function affectsLinks(payload: string): boolean {
  return payload === 'reload' || LINK_SOURCES.has(payload.slice(0, payload.indexOf(':')));
}

interface LinkRow {
  id: string;
  condition_id: string;
  question: string;
  slug: string;
  description: string;
  resolution_source: string;
  icon: string;
  image: string;
  start_date: Date | null;
  end_date: Date | null;
  neg_risk: boolean;
  event_id: string | null;
  event_slug: string | null;
  event_title: string | null;
  event_ticker: string | null;
  event_description: string | null;
  event_icon: string | null;
  event_image: string | null;
  event_start: Date | null;
  event_end: Date | null;
  tags: string[];
}

/**
 * The catalog market behind an order-book market, as the clob's `raw_metadata` carries it: its
 * catalog id, slug, texts and dates, and its event's id and slug.
 */
export function catalogMetadata(link: CatalogLink): Record<string, string | null> {
  return {
    id: String(link.catalogId),
    slug: link.slug,
    question: link.question,
    description: link.description,
    resolutionSource: link.resolutionSource,
    startDate: link.startDate,
    endDate: link.endDate,
    eventId: link.event?.id ?? null,
    eventSlug: link.event?.slug ?? null,
  };
}

export function negRiskMarketId(eventId: string): string {
  return `0x${createHash('sha256').update(`pmx-neg-risk:${eventId}`).digest('hex')}`;
}

function eventOf(r: LinkRow): CatalogEventSummary | null {
  if (r.event_id === null) return null;
  return {
    id: r.event_id,
    slug: r.event_slug ?? '',
    title: r.event_title ?? '',
    ticker: r.event_ticker ?? '',
    description: r.event_description ?? '',
  };
}

function fromRow(r: LinkRow): CatalogLink {
  const event = eventOf(r);
  return {
    conditionId: r.condition_id,
    catalogId: Number(r.id),
    question: r.question,
    slug: r.slug,
    description: r.description,
    resolutionSource: r.resolution_source,
    icon: r.icon || (r.event_icon ?? ''),
    image: r.image || (r.event_image ?? ''),
    startDate: (r.start_date ?? r.event_start)?.toISOString() ?? null,
    endDate: (r.end_date ?? r.event_end)?.toISOString() ?? null,
    event,
    tags: r.tags,
    negRiskMarketId: r.neg_risk && event !== null ? negRiskMarketId(event.id) : '',
  };
}

/** The links of the order-book markets the catalog lists (all, or those of `conditionIds`). */
export async function readCatalogLinks(sql: Sql, conditionIds?: readonly string[]): Promise<CatalogLink[]> {
  const rows = await sql<LinkRow[]>`
    SELECT c.id, c.condition_id, c.question, c.slug, c.description, c.resolution_source, c.icon, c.image,
           c.start_date, c.end_date, m.neg_risk,
           e.id AS event_id, e.slug AS event_slug, e.title AS event_title, e.ticker AS event_ticker,
           e.description AS event_description, e.icon AS event_icon, e.image AS event_image,
           e.start_date AS event_start, e.end_date AS event_end,
           ARRAY(SELECT t.label FROM catalog_tags t
                  WHERE t.id IN (SELECT mt.tag_id FROM catalog_market_tags mt WHERE mt.market_id = c.id
                                 UNION SELECT et.tag_id FROM catalog_event_tags et WHERE et.event_id = e.id)
                  ORDER BY t.id) AS tags
      FROM catalog_markets c
      JOIN markets m ON m.condition_id = c.condition_id
      LEFT JOIN LATERAL (SELECT em.event_id FROM catalog_event_markets em WHERE em.market_id = c.id
                          ORDER BY em.event_id LIMIT 1) l ON true
      LEFT JOIN catalog_events e ON e.id = l.event_id
     ${conditionIds === undefined ? sql`` : sql`WHERE c.condition_id = ANY(${conditionIds as string[]}::text[])`}`;
  return rows.map(fromRow);
}

export interface CatalogLinksOptions {
  /** Quiet time after a catalog change before the links are read again (a bulk edit is one read). */
  debounceMs?: number;
  /** Told the condition ids whose link changed (appeared, changed or went), after each read. */
  onChange?: (conditionIds: string[]) => void;
}

const DEFAULT_DEBOUNCE_MS = 200;
const RETRY_MS = 1000;

/**
 * Every order-book market's link, in memory: read whole at start, and again (debounced, one read
 * at a time) after each catalog change that can touch links, or after the LISTEN connection was
 * lost (a change may have been missed).
 */
export class CatalogLinks {
  private links = new Map<string, CatalogLink>();
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: CatalogLinksOptions = {},
  ) {}

  get(conditionId: string): CatalogLink | undefined {
    return this.links.get(conditionId);
  }

  get size(): number {
    return this.links.size;
  }

  /** Listens first, then reads, so that no change between the two is lost. */
  async start(): Promise<void> {
    let connections = 0;
    const listening = await this.sql.listen(
      CATALOG_CHANNEL,
      (payload) => {
        if (affectsLinks(payload)) this.schedule();
      },
      () => {
        if (connections++ > 0) this.schedule();
      },
    );
    this.unlisten = listening.unlisten;
    await this.read();
  }

  /** Reads every link now (after any read in flight); resolves once the new links are in place. */
  async read(): Promise<void> {
    if (this.reading !== undefined) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readNow().finally(() => (this.reading = undefined));
    await this.reading;
    if (this.again && !this.closed) {
      this.again = false;
      await this.read();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.reading?.catch(() => {});
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.read().catch((error: unknown) => {
        logger('market-meta').error({ err: error }, 'reading the catalog links failed; retrying');
        if (!this.closed) this.timer = setTimeout(() => this.schedule(), RETRY_MS);
      });
    }, this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  }

  private async readNow(): Promise<void> {
    const fresh = new Map((await readCatalogLinks(this.sql)).map((link) => [link.conditionId, link]));
    const onChange = this.options.onChange;
    const changed: string[] = [];
    if (onChange !== undefined) {
      for (const [id, link] of fresh) {
        const before = this.links.get(id);
        if (before === undefined || JSON.stringify(before) !== JSON.stringify(link)) changed.push(id);
      }
      for (const id of this.links.keys()) if (!fresh.has(id)) changed.push(id);
    }
    this.links = fresh;
    if (changed.length > 0) onChange?.(changed);
  }
}

// Keeps the read model in step with Postgres: a full load at start (and after the LISTEN
// connection was lost, since notifications may have been missed), then for each batch of
// notifications a targeted read of just the named rows. Batches are applied one at a time, in
// order, so an older read never overwrites a newer one.

import type { Sql } from '@pmx/db';
import { CatalogState, type Holdings, type OutcomePrices } from './catalog-state.ts';
import { CatalogView } from './catalog-view.ts';
import {
  LINK_TABLES,
  readComments,
  readEvents,
  readLinks,
  readMarkets,
  readProfiles,
  readSeries,
  readTags,
  type LinkTable,
} from '../store/catalog-reads.ts';
import {
  addNotification,
  CHANGE_CHANNEL,
  emptyChanges,
  isEmpty,
  mergeChanges,
  type ChangeSet,
} from '../store/change-set.ts';
import { logger } from '@pmx/config';

const RETRY_MS = 500;
const DEFAULT_RESPONSE_CACHE_ENTRIES = 256;

export interface ProjectionLog {
  error(message: string, error?: unknown): void;
}

export class CatalogProjection {
  /** Live outcome prices and positions survive a full reload (their feeds own them). */
  readonly prices: OutcomePrices = new Map();
  readonly holdings: Holdings = new Map();
  private current: CatalogView;
  private pending: ChangeSet = emptyChanges();
  private scheduled: Promise<void> | undefined;
  private tail: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: { responseCacheEntries?: number; log?: ProjectionLog } = {},
  ) {
    this.current = this.newView(new CatalogState(this.prices, this.holdings));
  }

  private get log(): ProjectionLog {
    return this.options.log ?? { error: (message, error) => logger('catalog').error({ err: error }, message) };
  }

  private newView(state: CatalogState): CatalogView {
    return new CatalogView(state, this.options.responseCacheEntries ?? DEFAULT_RESPONSE_CACHE_ENTRIES);
  }

  get view(): CatalogView {
    return this.current;
  }

  /** Listens first, then loads, so no change between the two is lost. */
  async start(): Promise<void> {
    let connections = 0;
    const listening = await this.sql.listen(
      CHANGE_CHANNEL,
      (payload) => {
        const changes = emptyChanges();
        if (addNotification(changes, payload)) void this.enqueue(changes);
        else this.log.error(`ignored notification ${JSON.stringify(payload)}`);
      },
      () => {
        // Called on every (re)connect of the LISTEN connection; after the first, catch up.
        if (connections++ > 0) void this.enqueue({ ...emptyChanges(), reload: true });
      },
    );
    this.unlisten = listening.unlisten;
    // Notifications that arrive during the first load queue up behind it.
    const initial = this.loadAll();
    this.tail = initial.catch(() => {});
    await initial;
  }

  /** Applies changes (merged with any already waiting); resolves once they are visible. */
  enqueue(changes: ChangeSet): Promise<void> {
    mergeChanges(this.pending, changes);
    if (this.scheduled === undefined) {
      const run = this.tail.then(() => {
        this.scheduled = undefined;
        const batch = this.pending;
        this.pending = emptyChanges();
        return this.applyBatch(batch);
      });
      this.scheduled = run;
      this.tail = run.catch(() => {});
    }
    return this.scheduled;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.unlisten?.().catch(() => {});
    await this.tail;
  }

  private async applyBatch(batch: ChangeSet): Promise<void> {
    if (this.closed || isEmpty(batch)) return;
    try {
      if (batch.reload) await this.loadAll();
      else await this.applyChanges(batch);
    } catch (error) {
      this.log.error('applying catalog changes failed; retrying', error);
      if (this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      void this.enqueue(batch);
    }
  }

  /** Reads everything into a fresh state and swaps it in. */
  async loadAll(): Promise<void> {
    const sql = this.sql;
    const linkTables = Object.keys(LINK_TABLES) as LinkTable[];
    const [tags, series, events, markets, profiles, comments, ...links] = await Promise.all([
      readTags(sql),
      readSeries(sql),
      readEvents(sql),
      readMarkets(sql),
      readProfiles(sql),
      readComments(sql),
      ...linkTables.map((table) => readLinks(sql, table)),
    ]);
    const state = new CatalogState(this.prices, this.holdings);
    linkTables.forEach((table, i) => {
      const index = state.linkIndex(table);
      for (const [a, b] of links[i]!) index.add(a, b);
    });
    for (const tag of tags) state.putTag(tag);
    for (const s of series) state.putSeries(s);
    for (const event of events) state.putEvent(event);
    for (const market of markets) state.putMarket(market);
    for (const profile of profiles) state.putProfile(profile);
    for (const comment of comments) state.putComment(comment);
    this.current = this.newView(state);
  }

  private async applyChanges(batch: ChangeSet): Promise<void> {
    const sql = this.sql;
    const ids = batch.ids;
    const list = (set: Set<number>) => [...set];
    const linkEntries = [...batch.links].map(([table, pairs]) => [table, [...pairs.values()]] as const);
    const [tags, series, events, markets, profiles, comments, ...links] = await Promise.all([
      ids.catalog_tags.size > 0 ? readTags(sql, list(ids.catalog_tags)) : [],
      ids.catalog_series.size > 0 ? readSeries(sql, list(ids.catalog_series)) : [],
      ids.catalog_events.size > 0 ? readEvents(sql, list(ids.catalog_events)) : [],
      ids.catalog_markets.size > 0 ? readMarkets(sql, list(ids.catalog_markets)) : [],
      ids.catalog_profiles.size > 0 ? readProfiles(sql, list(ids.catalog_profiles)) : [],
      ids.catalog_comments.size > 0 ? readComments(sql, list(ids.catalog_comments)) : [],
      ...linkEntries.map(([table, pairs]) => readLinks(sql, table, pairs)),
    ]);
    const state = this.current.state;
    const apply = <T extends { id: number }>(
      wanted: Set<number>,
      rows: T[],
      put: (r: T) => void,
      drop: (id: number) => void,
    ) => {
      const found = new Set<number>();
      for (const row of rows) {
        found.add(row.id);
        put(row);
      }
      for (const id of wanted) if (!found.has(id)) drop(id);
    };
    apply(
      ids.catalog_tags,
      tags,
      (r) => state.putTag(r),
      (id) => state.dropTag(id),
    );
    apply(
      ids.catalog_series,
      series,
      (r) => state.putSeries(r),
      (id) => state.dropSeries(id),
    );
    apply(
      ids.catalog_events,
      events,
      (r) => state.putEvent(r),
      (id) => state.dropEvent(id),
    );
    apply(
      ids.catalog_markets,
      markets,
      (r) => state.putMarket(r),
      (id) => state.dropMarket(id),
    );
    apply(
      ids.catalog_profiles,
      profiles,
      (r) => state.putProfile(r),
      (id) => state.dropProfile(id),
    );
    apply(
      ids.catalog_comments,
      comments,
      (r) => state.putComment(r),
      (id) => state.dropComment(id),
    );
    linkEntries.forEach(([table, pairs], i) => {
      const present = new Set(links[i]!.map(([a, b]) => `${a}:${b}`));
      for (const [a, b] of pairs) state.setLink(table, a, b, present.has(`${a}:${b}`));
    });
  }
}

// Keeps the account-data read model in step with Postgres: a snapshot at start (and again after
// the LISTEN connection was lost, since notifications may have been missed), then for each batch
// of notifications the rows they name, read in one snapshot. Batches apply one at a time, in
// order, so an older read never overwrites a newer one. Channels:
//   pmx_ledger    "<shard>:<seq>"        a shard's batches up to seq are committed (ingest)
//   pmx_positions "<address>:<token id>" an operator transfer moved a position (migration 020)
//   pmx_markets   "<condition id>"       a market was created or changed (migration 020)
//   pmx_catalog   "catalog_profiles:<id>" a public profile changed (and links: CatalogLinks)

import type { Sql } from '@pmx/db';
import { CatalogLinks } from '@pmx/market-meta';
import { logger } from '@pmx/config';
import { AccountState } from './account-state.ts';
import {
  readMarkets,
  readMovedKeys,
  readPositions,
  readProfiles,
  readSnapshot,
  type Reader,
  type ShardRange,
} from '../store/account-reads.ts';

const RETRY_MS = 500;

interface Pending {
  reload: boolean;
  /** Shard → the highest sequence number notified. */
  shards: Map<number, number>;
  /** "<address>:<token id>" of transferred positions. */
  positions: Set<string>;
  markets: Set<string>;
  profiles: Set<number>;
}

function nothingPending(): Pending {
  return { reload: false, shards: new Map(), positions: new Set(), markets: new Set(), profiles: new Set() };
}

function isEmpty(p: Pending): boolean {
  return !p.reload && p.shards.size === 0 && p.positions.size === 0 && p.markets.size === 0 && p.profiles.size === 0;
}

export interface ProjectionStats {
  /** Change batches applied since start (snapshots not counted). */
  batches: number;
  /** Snapshots taken (1 after start; more after lost LISTEN connections). */
  snapshots: number;
}

export interface AccountProjectionOptions {
  /** Whole answers kept until what they show changes; 0 = none. */
  responseCacheEntries?: number;
}

export class AccountProjection {
  state: AccountState;
  readonly links: CatalogLinks;
  readonly stats: ProjectionStats = { batches: 0, snapshots: 0 };
  /** Each shard's sequence number the read model is complete up to. */
  private readonly applied = new Map<number, number>();
  private pending = nothingPending();
  private scheduled: Promise<void> | undefined;
  private tail: Promise<void> = Promise.resolve();
  private readonly unlisten: (() => Promise<void>)[] = [];
  private closed = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: AccountProjectionOptions = {},
  ) {
    this.state = new AccountState(options.responseCacheEntries);
    this.links = new CatalogLinks(sql, {
      onChange: (conditionIds) => {
        for (const id of conditionIds) this.state.setLink(id, this.links.get(id));
      },
    });
  }

  /** Listens first, then loads, so no change between the two is lost. */
  async start(): Promise<void> {
    let connections = 0;
    const onConnect = () => {
      // Called on every (re)connect of the LISTEN connection; after the first, catch up.
      if (connections++ > 0) this.enqueue({ ...nothingPending(), reload: true });
    };
    const listen = async (channel: string, take: (payload: string, into: Pending) => boolean) => {
      const listening = await this.sql.listen(
        channel,
        (payload) => {
          const changes = nothingPending();
          if (take(payload, changes)) this.enqueue(changes);
          else if (channel !== 'pmx_catalog') logger('data').warn(`ignored ${channel} notification ${payload}`);
        },
        channel === 'pmx_ledger' ? onConnect : undefined,
      );
      this.unlisten.push(listening.unlisten);
    };
    await listen('pmx_ledger', takeLedger);
    await listen('pmx_positions', takeTransfer);
    await listen('pmx_markets', (payload, into) => into.markets.add(payload) !== undefined);
    await listen('pmx_catalog', takeProfile);
    await this.links.start();
    const initial = this.loadAll();
    this.tail = initial.catch(() => {});
    await initial;
  }

  /** Resolves once everything notified so far (and these changes) is applied. */
  enqueue(changes: Pending): Promise<void> {
    merge(this.pending, changes);
    if (this.scheduled === undefined) {
      const run = this.tail.then(() => {
        this.scheduled = undefined;
        const batch = this.pending;
        this.pending = nothingPending();
        return this.applyBatch(batch);
      });
      this.scheduled = run;
      this.tail = run.catch(() => {});
    }
    return this.scheduled;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.unlisten.map((unlisten) => unlisten().catch(() => {})));
    await this.links.close();
    await this.tail;
  }

  private async applyBatch(batch: Pending): Promise<void> {
    if (this.closed || isEmpty(batch)) return;
    try {
      if (batch.reload) await this.loadAll();
      else {
        await this.applyChanges(batch);
        this.stats.batches++;
      }
    } catch (error) {
      logger('data').error({ err: error }, 'applying ledger changes failed; retrying');
      if (this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      void this.enqueue(batch);
    }
  }

  /** Reads everything into a fresh state and swaps it in. */
  private async loadAll(): Promise<void> {
    const snapshot = await readSnapshot(this.sql);
    const state = new AccountState(this.options.responseCacheEntries);
    for (const market of snapshot.markets) state.putMarket(market, this.links.get(market.conditionId));
    for (const position of snapshot.positions) state.putPosition(position);
    for (const profile of snapshot.profiles) state.putProfile(profile);
    // The clob's prices carry over: they are not in Postgres.
    state.adoptPrices(this.state);
    this.applied.clear();
    for (const [shard, seq] of snapshot.offsets) this.applied.set(shard, seq);
    this.state = state;
    this.stats.snapshots++;
  }

  private async applyChanges(batch: Pending): Promise<void> {
    const ranges: ShardRange[] = [];
    for (const [shard, upTo] of batch.shards) {
      const after = this.applied.get(shard) ?? 0;
      if (upTo > after) ranges.push({ shard, after, upTo });
    }
    const transfers = [...batch.positions].map((key) => {
      const colon = key.indexOf(':');
      return { address: key.slice(0, colon), asset: key.slice(colon + 1) };
    });
    const state = this.state;
    const apply = async (reader: Reader) => {
      const [markets, moved, profiles] = await Promise.all([
        batch.markets.size > 0 ? readMarkets(reader, [...batch.markets]) : [],
        readMovedKeys(reader, ranges),
        batch.profiles.size > 0 ? readProfiles(reader, [...batch.profiles]) : [],
      ]);
      for (const market of markets) state.putMarket(market, this.links.get(market.conditionId));
      for (const position of await readPositions(reader, [...moved, ...transfers])) state.putPosition(position);
      const awaited = state.awaitedMarkets();
      if (awaited.length > 0)
        for (const market of await readMarkets(reader, awaited))
          state.putMarket(market, this.links.get(market.conditionId));
      const found = new Set(profiles.map((p) => p.id));
      for (const profile of profiles) state.putProfile(profile);
      for (const id of batch.profiles) if (!found.has(id)) state.dropProfile(id);
    };
    // The usual batch, ledger changes alone, needs no shared snapshot: the keys it reads are
    // committed for good, and the positions read after them are as new or newer. Markets and
    // profiles are read with the positions in one snapshot.
    const alone = batch.markets.size === 0 && batch.profiles.size === 0;
    if (alone) await apply(this.sql);
    else await this.sql.begin('isolation level repeatable read read only', apply);
    for (const range of ranges) this.applied.set(range.shard, range.upTo);
  }
}

function merge(into: Pending, from: Pending): void {
  into.reload ||= from.reload;
  for (const [shard, seq] of from.shards) into.shards.set(shard, Math.max(seq, into.shards.get(shard) ?? 0));
  for (const key of from.positions) into.positions.add(key);
  for (const id of from.markets) into.markets.add(id);
  for (const id of from.profiles) into.profiles.add(id);
}

function takeLedger(payload: string, into: Pending): boolean {
  const match = /^(\d{1,9}):(\d{1,15})$/.exec(payload);
  if (match === null) return false;
  into.shards.set(Number(match[1]), Number(match[2]));
  return true;
}

function takeTransfer(payload: string, into: Pending): boolean {
  if (!/^[^:]+:[^:]+$/.test(payload)) return false;
  into.positions.add(payload);
  return true;
}

/** Profiles only: the links follow pmx_catalog on their own (CatalogLinks). */
function takeProfile(payload: string, into: Pending): boolean {
  if (payload === 'reload') {
    into.reload = true;
    return true;
  }
  const match = /^catalog_profiles:(\d+)$/.exec(payload);
  if (match === null) return false;
  into.profiles.add(Number(match[1]));
  return true;
}

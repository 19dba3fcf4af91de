// Positions of comment authors (for `holders_only` and the positions in comment profiles), read
// from the ledger every few seconds in one query — never per request. Only authors' positions
// are kept, so memory follows the number of commenters, not of traders.

import type { Sql } from '@pmx/db';
import type { CatalogProjection } from './catalog-projection.ts';
import { PeriodicRefresh } from '@pmx/market-meta';
import { readAuthorPositions, type PositionRow } from '../store/positions-reads.ts';
import { logger } from '@pmx/config';

export interface PositionsFeedOptions {
  intervalMs: number;
  log?: (message: string) => void;
}

export class PositionsFeed extends PeriodicRefresh {
  private reported = false;

  constructor(
    private readonly sql: Sql,
    private readonly projection: CatalogProjection,
    private readonly options: PositionsFeedOptions,
  ) {
    super(options.intervalMs);
  }

  protected async work(): Promise<void> {
    const log = this.options.log ?? ((message: string) => logger('catalog').warn(message));
    const state = this.projection.view.state;
    let rows: PositionRow[] | 'unavailable';
    try {
      rows = await readAuthorPositions(this.sql, [...state.commentsByAuthor.keys()]);
    } catch (error) {
      log(`positions: read failed (${(error as Error).message})`);
      return;
    }
    if (rows === 'unavailable') {
      if (!this.reported) log('positions: no ledger positions table yet; holders_only finds no holders');
      this.reported = true;
      rows = [];
    }
    const fresh = new Map<string, Map<string, string>>();
    for (const row of rows) {
      const token = this.tokenOf(row.asset);
      if (token === undefined) continue;
      let held = fresh.get(row.address);
      if (held === undefined) fresh.set(row.address, (held = new Map()));
      held.set(token, row.size);
    }
    this.apply(fresh);
  }

  /** '<condition_id>:<outcome_index>' → that outcome's token id; a bare token id as is. */
  private tokenOf(asset: string): string | undefined {
    const colon = asset.indexOf(':');
    if (colon < 0) return asset;
    const market = this.projection.view.state.markets.find('conditionId', asset.slice(0, colon).toLowerCase());
    return market?.tokens[Number(asset.slice(colon + 1))];
  }

  private apply(fresh: Map<string, Map<string, string>>): void {
    const holdings = this.projection.holdings;
    const changed: string[] = [];
    for (const [address, held] of fresh) {
      if (!sameHoldings(holdings.get(address), held)) changed.push(address);
      holdings.set(address, held);
    }
    for (const address of [...holdings.keys()]) {
      if (fresh.has(address)) continue;
      holdings.delete(address);
      changed.push(address);
    }
    if (changed.length > 0) this.projection.view.state.holdingsChanged(changed);
  }
}

function sameHoldings(a: Map<string, string> | undefined, b: Map<string, string>): boolean {
  if (a === undefined || a.size !== b.size) return false;
  for (const [token, size] of b) if (a.get(token) !== size) return false;
  return true;
}

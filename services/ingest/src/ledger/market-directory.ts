// The market facts ingest needs to turn events into money and rows: both token ids, outcome
// names, ticks per unit and fee rates, read from the markets table once per market and cached.

import type { Sql } from '@pmx/db';
import { ticksPerUnitOf } from '@pmx/ledger';

export interface LedgerMarket {
  conditionId: string;
  tokens: [string, string];
  outcomes: [string, string];
  ticksPerUnit: number;
  takerFeeBps: number;
  makerFeeBps: number;
}

export class UnknownMarketError extends Error {
  override readonly name = 'UnknownMarketError';
}

interface MarketRow {
  condition_id: string;
  token0: string;
  token1: string;
  outcome0: string;
  outcome1: string;
  tick_size: string;
  taker_base_fee: number;
  maker_base_fee: number;
}

export class MarketDirectory {
  private readonly markets = new Map<string, LedgerMarket>();

  constructor(private readonly sql: Sql) {}

  get(conditionId: string): LedgerMarket {
    const market = this.markets.get(conditionId);
    if (market === undefined) throw new UnknownMarketError(`market ${conditionId} is not loaded`);
    return market;
  }

  /** Loads every market of `conditionIds` not cached yet; an id missing from Postgres throws. */
  async load(conditionIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(conditionIds)].filter((id) => !this.markets.has(id));
    if (missing.length === 0) return;
    const rows = await this.sql<MarketRow[]>`
      SELECT condition_id, token0, token1, outcome0, outcome1, tick_size, taker_base_fee, maker_base_fee
        FROM markets WHERE condition_id = ANY(${this.sql.array(missing)}::text[])`;
    for (const row of rows) {
      this.markets.set(row.condition_id, {
        conditionId: row.condition_id,
        tokens: [row.token0, row.token1],
        outcomes: [row.outcome0, row.outcome1],
        ticksPerUnit: ticksPerUnitOf(row.tick_size),
        takerFeeBps: row.taker_base_fee,
        makerFeeBps: row.maker_base_fee,
      });
    }
    const absent = missing.filter((id) => !this.markets.has(id));
    if (absent.length > 0)
      throw new UnknownMarketError(`events name markets missing from the markets table: ${absent.join(', ')}`);
  }
}

// The one query the catalog makes of the ledger's positions (migration 003_ledger, owned by
// services/ingest): who holds what, for the authors of comments. It relies on
// positions(address lower-case, asset = outcome token id, size = base units, > 0 while held);
// an asset of the contract's '<condition_id>:<outcome_index>' form is understood too. A missing
// table or column is reported as 'unavailable' so the catalog also runs on a database without
// the ledger (then nobody holds anything).

import type { Sql } from '@pmx/db';

export interface PositionRow {
  address: string;
  asset: string;
  /** As stored (base units), as a decimal string. */
  size: string;
}

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_COLUMN = '42703';

export async function readAuthorPositions(sql: Sql, addresses: readonly string[]): Promise<PositionRow[] | 'unavailable'> {
  if (addresses.length === 0) return [];
  try {
    return await sql<PositionRow[]>`
      SELECT address, asset, size::text AS size FROM positions
      WHERE address = ANY(${addresses as string[]}::text[]) AND size > 0`;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNDEFINED_TABLE || code === UNDEFINED_COLUMN) return 'unavailable';
    throw error;
  }
}

// The one query the catalog makes of the ledger's positions (migration 003_ledger, owned by
// services/ingest): who holds what, for the authors of comments, themselves or through the proxy
// wallets they sign for (proxy_wallets, registered on the order-book front end). It relies on
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

export async function readAuthorPositions(
  sql: Sql,
  addresses: readonly string[],
): Promise<PositionRow[] | 'unavailable'> {
  if (addresses.length === 0) return [];
  try {
    // An author's own positions and those of the proxy wallets it signs for (signature types 1
    // and 2, proxy_wallets): the ledger keeps a trade's tokens under the maker, the proxy.
    return await sql<PositionRow[]>`
      SELECT h.author AS address, p.asset, sum(p.size)::text AS size
        FROM (SELECT a AS author, a AS holder FROM unnest(${addresses as string[]}::text[]) AS a
              UNION SELECT w.signer, w.proxy FROM proxy_wallets w WHERE w.signer = ANY(${addresses as string[]}::text[])) h
        JOIN positions p ON p.address = h.holder AND p.size > 0
       GROUP BY h.author, p.asset`;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNDEFINED_TABLE || code === UNDEFINED_COLUMN) return 'unavailable';
    throw error;
  }
}

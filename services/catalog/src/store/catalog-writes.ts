// Writes to the catalog tables (operator API and POST /comments), each in one transaction. They
// return the change set they caused so the caller can wait until the projection shows it; the
// table triggers tell every other catalog process the same through NOTIFY.

import type { Sql, TransactionSql } from '@pmx/db';
import { LINK_TABLES, type LinkTable } from './catalog-reads.ts';
import { addLink, emptyChanges, type ChangeSet, type EntityTable } from './change-set.ts';

/** Replace the links of one entity in a link table: `side` is the column holding its id. */
export interface LinkReplacement {
  table: LinkTable;
  side: 0 | 1;
  ids: readonly number[];
}

export interface EntityWrite {
  table: EntityTable;
  /** undefined: insert. */
  id?: number;
  columns: Record<string, unknown>;
  links?: readonly LinkReplacement[];
  /** Keep closed_time in step with closed (events and markets). */
  tracksClosedTime?: boolean;
}

export class WriteConflict extends Error {}

/** Inserts or updates one entity row and replaces the given links; undefined when the id is unknown. */
export async function writeEntity(
  sql: Sql,
  write: EntityWrite,
): Promise<{ id: number; changes: ChangeSet } | undefined> {
  try {
    return await sql.begin(async (tx) => {
      const id = await upsertRow(tx, write);
      if (id === undefined) return undefined;
      const changes = emptyChanges();
      changes.ids[write.table].add(id);
      for (const link of write.links ?? []) await replaceLinks(tx, link, id, changes);
      return { id, changes };
    });
  } catch (error) {
    throw asConflict(error);
  }
}

async function upsertRow(tx: TransactionSql, write: EntityWrite): Promise<number | undefined> {
  const columns = write.columns;
  const names = Object.keys(columns);
  let rows;
  if (write.id === undefined) {
    rows =
      names.length === 0
        ? await tx`INSERT INTO ${tx(write.table)} DEFAULT VALUES RETURNING id`
        : await tx`INSERT INTO ${tx(write.table)} ${tx(columns as Record<string, any>, names)} RETURNING id`;
  } else if (names.length === 0) {
    rows = await tx`UPDATE ${tx(write.table)} SET updated_at = now() WHERE id = ${write.id} RETURNING id`;
  } else {
    rows =
      await tx`UPDATE ${tx(write.table)} SET ${tx(columns as Record<string, any>, names)}, updated_at = now() WHERE id = ${write.id} RETURNING id`;
  }
  if (rows.length === 0) return undefined;
  const id = Number(rows[0]!.id);
  if (write.tracksClosedTime) {
    await tx`UPDATE ${tx(write.table)} SET closed_time = CASE WHEN closed THEN coalesce(closed_time, now()) END
             WHERE id = ${id} AND closed_time IS DISTINCT FROM (CASE WHEN closed THEN coalesce(closed_time, now()) END)`;
  }
  return id;
}

async function replaceLinks(tx: TransactionSql, link: LinkReplacement, id: number, changes: ChangeSet): Promise<void> {
  const columns = LINK_TABLES[link.table];
  const own = columns[link.side];
  const other = columns[1 - link.side]!;
  const removed = await tx`
    DELETE FROM ${tx(link.table)} WHERE ${tx(own)} = ${id} AND NOT (${tx(other)} = ANY(${link.ids as number[]}::bigint[]))
    RETURNING ${tx(other)} AS other`;
  const added =
    link.ids.length === 0
      ? []
      : await tx`
    INSERT INTO ${tx(link.table)} (${tx(own)}, ${tx(other)})
    SELECT ${id}, unnest(${link.ids as number[]}::bigint[])
    ON CONFLICT DO NOTHING
    RETURNING ${tx(other)} AS other`;
  for (const row of [...removed, ...added]) {
    const otherId = Number(row.other);
    if (link.side === 0) addLink(changes, link.table, id, otherId);
    else addLink(changes, link.table, otherId, id);
  }
}

/** Unique and foreign-key violations are the caller's fault: a 400, not a 500. */
function asConflict(error: unknown): unknown {
  const pg = error as { code?: string; constraint_name?: string; detail?: string };
  if (pg.code === '23505') {
    const what = pg.constraint_name?.includes('condition')
      ? 'conditionId'
      : pg.constraint_name?.includes('proxy_wallet')
        ? 'address'
        : 'slug';
    return new WriteConflict(`${what} already exists`);
  }
  if (pg.code === '23503')
    return new WriteConflict(`a linked id does not exist (${pg.detail ?? pg.constraint_name ?? 'foreign key'})`);
  return error;
}

/** The order-book market a catalog market links to: its fields become the catalog defaults. */
export async function readOrderBookMarket(sql: Sql, conditionId: string) {
  const [row] = await sql<
    {
      question: string;
      market_slug: string;
      question_id: string;
      description: string;
      icon: string;
      image: string;
      end_date_iso: Date | null;
    }[]
  >`SELECT question, market_slug, question_id, description, icon, image, end_date_iso FROM markets WHERE condition_id = ${conditionId}`;
  return row;
}

export interface NewComment {
  body: string;
  parentEntityType: string;
  parentEntityId: number;
  parentCommentId: number | null;
  userAddress: string;
  replyAddress: string;
}

/** Stores a comment, creating a bare profile for a first-time author. */
export async function insertComment(sql: Sql, comment: NewComment): Promise<{ id: number; changes: ChangeSet }> {
  return sql.begin(async (tx) => {
    const changes = emptyChanges();
    // Only when no profile knows the address, as its proxy wallet or as its signer: a bare one
    // beside a profile the operator set up under a proxy would shadow it (lookups prefer proxies).
    const profiles = await tx`
      INSERT INTO catalog_profiles (proxy_wallet, base_address, pseudonym)
      SELECT ${comment.userAddress}, ${comment.userAddress}, ${defaultPseudonym(comment.userAddress)}
       WHERE NOT EXISTS (SELECT 1 FROM catalog_profiles WHERE base_address = ${comment.userAddress})
      ON CONFLICT (proxy_wallet) DO NOTHING RETURNING id`;
    for (const row of profiles) changes.ids.catalog_profiles.add(Number(row.id));
    const [row] = await tx`
      INSERT INTO catalog_comments (body, parent_entity_type, parent_entity_id, parent_comment_id, user_address, reply_address)
      VALUES (${comment.body}, ${comment.parentEntityType}, ${comment.parentEntityId}, ${comment.parentCommentId},
              ${comment.userAddress}, ${comment.replyAddress})
      RETURNING id`;
    const id = Number(row!.id);
    changes.ids.catalog_comments.add(id);
    return { id, changes };
  });
}

export async function deleteRow(sql: Sql, table: EntityTable, id: number): Promise<ChangeSet | undefined> {
  const rows = await sql`DELETE FROM ${sql(table)} WHERE id = ${id} RETURNING id`;
  if (rows.length === 0) return undefined;
  const changes = emptyChanges();
  changes.ids[table].add(id);
  return changes;
}

/** A first-time commenter's shown name until they set one: stable per address. */
export function defaultPseudonym(address: string): string {
  return `trader-${address.slice(2, 8)}`;
}

/** Creates or updates the profile of a proxy wallet (lower-case). */
export async function upsertProfile(
  sql: Sql,
  proxyWallet: string,
  columns: Record<string, unknown>,
): Promise<{ id: number; changes: ChangeSet }> {
  const insert = {
    base_address: proxyWallet,
    pseudonym: defaultPseudonym(proxyWallet),
    ...columns,
    proxy_wallet: proxyWallet,
  };
  const updates = Object.keys(columns);
  const rows =
    updates.length === 0
      ? await sql`INSERT INTO catalog_profiles ${sql(insert)} ON CONFLICT (proxy_wallet) DO UPDATE SET updated_at = now() RETURNING id`
      : await sql`INSERT INTO catalog_profiles ${sql(insert)}
                ON CONFLICT (proxy_wallet) DO UPDATE SET ${sql(columns as Record<string, any>, updates)}, updated_at = now() RETURNING id`;
  const id = Number(rows[0]!.id);
  const changes = emptyChanges();
  changes.ids.catalog_profiles.add(id);
  return { id, changes };
}

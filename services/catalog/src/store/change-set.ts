// What changed in the catalog tables: the ids and link pairs named by `pmx_catalog`
// notifications (payload "<table>:<key>[:<key>]", see migration 004) or by an operator write,
// or "reload" for everything. Batches merge, so a burst of writes costs one round of reads.

import { LINK_TABLES, type LinkPair, type LinkTable } from './catalog-reads.ts';

export const CHANGE_CHANNEL = 'pmx_catalog';
export const RELOAD_PAYLOAD = 'reload';

export const ENTITY_TABLES = [
  'catalog_tags',
  'catalog_series',
  'catalog_events',
  'catalog_markets',
  'catalog_profiles',
  'catalog_comments',
] as const;
export type EntityTable = (typeof ENTITY_TABLES)[number];

export interface ChangeSet {
  reload: boolean;
  ids: Record<EntityTable, Set<number>>;
  links: Map<LinkTable, Map<string, LinkPair>>;
}

export function emptyChanges(): ChangeSet {
  return {
    reload: false,
    ids: {
      catalog_tags: new Set(),
      catalog_series: new Set(),
      catalog_events: new Set(),
      catalog_markets: new Set(),
      catalog_profiles: new Set(),
      catalog_comments: new Set(),
    },
    links: new Map(),
  };
}

export function isEmpty(changes: ChangeSet): boolean {
  return !changes.reload && changes.links.size === 0 && ENTITY_TABLES.every((t) => changes.ids[t].size === 0);
}

export function mergeChanges(into: ChangeSet, from: ChangeSet): void {
  into.reload ||= from.reload;
  for (const table of ENTITY_TABLES) for (const id of from.ids[table]) into.ids[table].add(id);
  for (const [table, pairs] of from.links) for (const pair of pairs.values()) addLink(into, table, pair[0], pair[1]);
}

export function addLink(changes: ChangeSet, table: LinkTable, a: number, b: number): void {
  let pairs = changes.links.get(table);
  if (pairs === undefined) changes.links.set(table, (pairs = new Map()));
  pairs.set(`${a}:${b}`, [a, b]);
}

const isEntityTable = (name: string): name is EntityTable => (ENTITY_TABLES as readonly string[]).includes(name);
const isLinkTable = (name: string): name is LinkTable => name in LINK_TABLES;

/** Adds what one notification payload names; false when the payload is not understood. */
export function addNotification(changes: ChangeSet, payload: string): boolean {
  if (payload === RELOAD_PAYLOAD) {
    changes.reload = true;
    return true;
  }
  const [table = '', ...keys] = payload.split(':');
  const numbers = keys.map(Number);
  if (!numbers.every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  if (isEntityTable(table) && numbers.length === 1) {
    changes.ids[table].add(numbers[0]!);
    return true;
  }
  if (isLinkTable(table) && numbers.length === 2) {
    addLink(changes, table, numbers[0]!, numbers[1]!);
    return true;
  }
  return false;
}

// GET /positions and GET /closed-positions: one wallet's positions from the read model, filtered,
// sorted and paged per the contract's parameters (defaults and bounds: docs/reference/data.md).
// Each position's JSON is rendered once per change, so a request joins cached strings.

import type { Handler, Route } from '@pmx/http';
import type { AccountProjection } from '../projection/account-projection.ts';
import type { AccountState } from '../projection/account-state.ts';
import { kindOf, type PositionEntry } from '../projection/entries.ts';
import type { PositionView } from '../projection/position-view.ts';
import { answering } from './faults.ts';
import {
  address,
  choice,
  conditionIds,
  direction,
  flag,
  integer,
  readParams,
  titleFilter,
  tokenAmount,
  type Direction,
  type Params,
} from './query.ts';

/** At most this many condition ids in a `market` filter. */
export const MAX_MARKET_FILTER = 100;

const POSITION_SORTS = [
  'CURRENT',
  'INITIAL',
  'TOKENS',
  'CASHPNL',
  'PERCENTPNL',
  'TITLE',
  'RESOLVING',
  'PRICE',
  'AVGPRICE',
] as const;
const CLOSED_SORTS = ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'] as const;
type SortKey = (typeof POSITION_SORTS)[number] | (typeof CLOSED_SORTS)[number];

interface Item {
  entry: PositionEntry;
  view: PositionView;
}

function sortValue(item: Item, key: SortKey): number | string {
  const { figures } = item.view;
  switch (key) {
    case 'CURRENT':
      return figures.currentValue;
    case 'INITIAL':
      return figures.initialValue;
    case 'TOKENS':
      return figures.size;
    case 'CASHPNL':
      return figures.cashPnl;
    case 'PERCENTPNL':
      return figures.percentPnl;
    case 'TITLE':
      return item.entry.market.titleLower;
    case 'RESOLVING':
      return item.entry.market.endMs;
    case 'PRICE':
      return figures.curPrice;
    case 'AVGPRICE':
      return figures.avgPrice;
    case 'REALIZEDPNL':
      return figures.realizedPnl;
    case 'TIMESTAMP':
      return item.view.timestamp;
  }
}

/** Sorted by `key` in `dir`; equal keys by asset (condition id, then outcome index), ascending. */
function sortItems(items: Item[], key: SortKey, dir: Direction): void {
  const sign = dir === 'ASC' ? 1 : -1;
  const keyed = items.map((item) => ({ item, value: sortValue(item, key) }));
  keyed.sort((a, b) => {
    if (a.value !== b.value) return (a.value < b.value ? -1 : 1) * sign;
    const x = a.item.entry;
    const y = b.item.entry;
    if (x.market.row.conditionId !== y.market.row.conditionId)
      return x.market.row.conditionId < y.market.row.conditionId ? -1 : 1;
    return x.index - y.index;
  });
  keyed.forEach((k, i) => (items[i] = k.item));
}

interface ListFilter {
  markets: Set<string> | undefined;
  title: string | undefined;
}

/** The wallet's positions of one kind that pass the filter, with their views. */
function collect(
  state: AccountState,
  wallet: string,
  filter: ListFilter,
  keep: (entry: PositionEntry, view: PositionView) => boolean,
): Item[] {
  const items: Item[] = [];
  for (const entry of state.wallets.get(wallet)?.positions.values() ?? []) {
    if (filter.markets !== undefined && !filter.markets.has(entry.market.row.conditionId)) continue;
    if (filter.title !== undefined && !entry.market.titleLower.includes(filter.title)) continue;
    const view = state.view(entry);
    if (keep(entry, view)) items.push({ entry, view });
  }
  return items;
}

function page(items: Item[], offset: number, limit: number): string {
  return `[${items.slice(offset, offset + limit).map((item) => item.view.json).join(',')}]`;
}

/** The answer, built once per request and query while the wallet's positions are unchanged. */
function cached(state: AccountState, ctx: { path: string; rawQuery: string }, user: string, build: () => string) {
  const stamp = () => state.wallets.get(user)?.version ?? -1;
  return { body: state.responses.through(`${ctx.path}?${ctx.rawQuery}`, stamp, build) };
}

const POSITION_PARAMS = [
  'user',
  'market',
  'sizeThreshold',
  'redeemable',
  'mergeable',
  'limit',
  'offset',
  'sortBy',
  'sortDirection',
  'title',
] as const;
const CLOSED_PARAMS = ['user', 'market', 'title', 'limit', 'offset', 'sortBy', 'sortDirection'] as const;

interface ListSpec<N extends string, S extends SortKey> {
  params: readonly N[];
  limit: { fallback: number; max: number };
  maxOffset: number;
  sorts: readonly S[];
  sortBy: S;
  /** Which of the wallet's positions the list holds, given the query. */
  keeps(q: Params<N>): (entry: PositionEntry, view: PositionView) => boolean;
}

/** A list of one wallet's positions: filtered by market and title, sorted, paged, cached. */
function listHandler<N extends string, S extends SortKey>(
  projection: AccountProjection,
  spec: ListSpec<N | 'user' | 'market' | 'title' | 'limit' | 'offset' | 'sortBy' | 'sortDirection', S>,
): Handler {
  return (ctx) => {
    const q = readParams(ctx, spec.params, ['user']);
    const user = address('user', q.user!);
    const filter: ListFilter = {
      markets: q.market === undefined ? undefined : new Set(conditionIds('market', q.market, MAX_MARKET_FILTER)),
      title: titleFilter('title', q.title),
    };
    const keep = spec.keeps(q);
    const limit = integer('limit', q.limit, spec.limit.fallback, spec.limit.max);
    const offset = integer('offset', q.offset, 0, spec.maxOffset);
    const sortBy = choice('sortBy', q.sortBy, spec.sorts, spec.sortBy);
    const dir = direction('sortDirection', q.sortDirection);
    const state = projection.state;
    return cached(state, ctx, user, () => {
      const items = collect(state, user, filter, keep);
      sortItems(items, sortBy, dir);
      return page(items, offset, limit);
    });
  };
}

export function positionRoutes(projection: AccountProjection): Route[] {
  const open = listHandler(projection, {
    params: POSITION_PARAMS,
    limit: { fallback: 100, max: 500 },
    maxOffset: 10_000,
    sorts: POSITION_SORTS,
    sortBy: 'TOKENS',
    keeps: (q) => {
      const threshold = tokenAmount('sizeThreshold', q.sizeThreshold, 1_000_000n);
      const redeemable = flag('redeemable', q.redeemable);
      const mergeable = flag('mergeable', q.mergeable);
      return (entry, view) =>
        entry.ledger.size > 0n &&
        entry.ledger.size >= threshold &&
        (!redeemable || view.redeemable) &&
        (!mergeable || view.mergeable);
    },
  });
  const closed = listHandler(projection, {
    params: CLOSED_PARAMS,
    limit: { fallback: 10, max: 50 },
    maxOffset: 100_000,
    sorts: CLOSED_SORTS,
    sortBy: 'REALIZEDPNL',
    keeps: () => (entry) => kindOf(entry.ledger) === 'closed',
  });
  return [
    { method: 'GET', path: '/positions', handler: answering(open) },
    { method: 'GET', path: '/closed-positions', handler: answering(closed) },
  ];
}

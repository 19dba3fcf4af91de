// Every query the account-data service makes: a consistent snapshot at start (markets, shard
// offsets, positions, profiles) and, per batch of change notifications, the rows they name. A
// market's row carries its lifecycle state and, once resolved, its payouts.

import type { Sql, TransactionSql } from '@pmx/db';

export type Reader = Sql | TransactionSql;

export type MarketState = 'open' | 'paused' | 'closed' | 'resolved';

export interface MarketRow {
  conditionId: string;
  question: string;
  slug: string;
  icon: string;
  endDate: string | null;
  tokens: [string, string];
  outcomes: [string, string];
  negRisk: boolean;
  state: MarketState;
  /** Collateral base units per whole token of each outcome once resolved; null before. */
  payouts: [bigint, bigint] | null;
}

export interface PositionRow {
  address: string;
  /** The outcome token's id. */
  asset: string;
  market: string;
  size: bigint;
  costBasis: bigint;
  realizedPnl: bigint;
  closedCost: bigint;
  totalBought: bigint;
  /** Unix seconds of the last change. */
  updatedAt: number;
}

export interface ProfileRow {
  id: number;
  proxyWallet: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  displayUsernamePublic: boolean;
}

export interface Snapshot {
  markets: MarketRow[];
  /** Each shard's last applied sequence number, as of the snapshot. */
  offsets: Map<number, number>;
  positions: PositionRow[];
  profiles: ProfileRow[];
}

/** A shard's batches (after, upTo] whose positions are to be read. */
export interface ShardRange {
  shard: number;
  after: number;
  upTo: number;
}

const POSITION_BATCH = 5000;

/** Everything at one instant: a REPEATABLE READ transaction, read-only. */
export async function readSnapshot(sql: Sql): Promise<Snapshot> {
  return (await sql.begin('isolation level repeatable read read only', async (tx) => {
    const markets = await readMarkets(tx);
    const offsets = await tx<{ shard: number; last_seq: string }[]>`SELECT shard, last_seq FROM shard_offsets`;
    const positions: PositionRow[] = [];
    for await (const rows of tx<RawPosition[]>`${positionColumns(tx)} WHERE p.market IS NOT NULL`.cursor(
      POSITION_BATCH,
    ))
      for (const row of rows) positions.push(fromPositionRow(row));
    const profiles = await readProfiles(tx);
    return {
      markets,
      offsets: new Map(offsets.map((o) => [o.shard, Number(o.last_seq)])),
      positions,
      profiles,
    };
  })) as Snapshot;
}

interface RawMarket {
  condition_id: string;
  question: string;
  market_slug: string;
  icon: string;
  end_date_iso: Date | null;
  token0: string;
  token1: string;
  outcome0: string;
  outcome1: string;
  neg_risk: boolean;
  state: MarketState;
  payouts: string[] | null;
}

/** Order-book markets (all, or those of `conditionIds`). */
export async function readMarkets(sql: Reader, conditionIds?: readonly string[]): Promise<MarketRow[]> {
  const rows = await sql<RawMarket[]>`
    SELECT condition_id, question, market_slug, icon, end_date_iso, token0, token1, outcome0, outcome1, neg_risk,
           state, payouts::text[] AS payouts
      FROM markets
     ${conditionIds === undefined ? sql`` : sql`WHERE condition_id = ANY(${conditionIds as string[]}::text[])`}`;
  return rows.map((r) => ({
    conditionId: r.condition_id,
    question: r.question,
    slug: r.market_slug,
    icon: r.icon,
    endDate: r.end_date_iso?.toISOString() ?? null,
    tokens: [r.token0, r.token1],
    outcomes: [r.outcome0, r.outcome1],
    negRisk: r.neg_risk,
    state: r.state,
    payouts: r.payouts?.length === 2 ? [BigInt(r.payouts[0]!), BigInt(r.payouts[1]!)] : null,
  }));
}

interface RawPosition {
  address: string;
  asset: string;
  market: string;
  size: string;
  cost_basis: string;
  realized_pnl: string;
  closed_cost: string;
  total_bought: string;
  updated: string;
}

function positionColumns(sql: Reader) {
  return sql`
    SELECT p.address, p.asset, p.market, p.size::text, p.cost_basis::text, p.realized_pnl::text,
           p.closed_cost::text, p.total_bought::text, floor(extract(epoch FROM p.updated_at))::text AS updated
      FROM positions p`;
}

function fromPositionRow(r: RawPosition): PositionRow {
  return {
    address: r.address,
    asset: r.asset,
    market: r.market,
    size: BigInt(r.size),
    costBasis: BigInt(r.cost_basis),
    realizedPnl: BigInt(r.realized_pnl),
    closedCost: BigInt(r.closed_cost),
    totalBought: BigInt(r.total_bought),
    updatedAt: Number(r.updated),
  };
}

export interface PositionKey {
  address: string;
  /** The outcome token's id. */
  asset: string;
}

/**
 * The positions that the token ledger entries of these shards' batches moved: one index range
 * read a shard (the planner cannot see how narrow a range joined from an array is, and scanned the
 * whole table for it).
 */
export async function readMovedKeys(sql: Reader, ranges: readonly ShardRange[]): Promise<PositionKey[]> {
  const keys = await Promise.all(
    ranges.map(
      (r) => sql<PositionKey[]>`
        SELECT DISTINCT address, asset FROM ledger_entries
         WHERE shard = ${r.shard} AND seq > ${r.after} AND seq <= ${r.upTo} AND asset <> 'collateral'`,
    ),
  );
  return keys.flat();
}

/** Positions by (address, token id). */
export async function readPositions(sql: Reader, keys: readonly PositionKey[]): Promise<PositionRow[]> {
  if (keys.length === 0) return [];
  const rows = await sql<RawPosition[]>`
    ${positionColumns(sql)}
      JOIN unnest(${keys.map((k) => k.address)}::text[], ${keys.map((k) => k.asset)}::text[]) AS k(address, asset)
        ON p.address = k.address AND p.asset = k.asset
     WHERE p.market IS NOT NULL`;
  return rows.map(fromPositionRow);
}

interface RawProfile {
  id: string;
  proxy_wallet: string;
  name: string;
  pseudonym: string;
  bio: string;
  profile_image: string;
  display_username_public: boolean;
}

/** Public profiles (all, or those of `ids`). */
export async function readProfiles(sql: Reader, ids?: readonly number[]): Promise<ProfileRow[]> {
  const rows = await sql<RawProfile[]>`
    SELECT id, proxy_wallet, name, pseudonym, bio, profile_image, display_username_public
      FROM catalog_profiles
     ${ids === undefined ? sql`` : sql`WHERE id = ANY(${ids as number[]}::bigint[])`}`;
  return rows.map((r) => ({
    id: Number(r.id),
    proxyWallet: r.proxy_wallet.toLowerCase(),
    name: r.name,
    pseudonym: r.pseudonym,
    bio: r.bio,
    profileImage: r.profile_image,
    displayUsernamePublic: r.display_username_public,
  }));
}

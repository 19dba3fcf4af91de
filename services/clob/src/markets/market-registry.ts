// The order-book markets this front end trades: loaded from Postgres at start, created through
// the operator API, looked up by condition id or by either token id.

import { TICK_SIZES, TICKS_PER_UNIT, type TickSize, type TokenIndex } from '@pmx/matching';
import type { Sql } from '@pmx/db';
import type { MarketState, Payouts } from '@pmx/events';

export interface MarketRecord {
  conditionId: string;
  marketId: number;
  question: string;
  questionId: string;
  description: string;
  slug: string;
  tokens: [string, string];
  outcomes: [string, string];
  tickSize: TickSize;
  ticksPerUnit: number;
  /** Base units. */
  minOrderSize: number;
  negRisk: boolean;
  negRiskMarketId: string;
  negRiskRequestId: string;
  endDateIso: string | null;
  gameStartTime: string | null;
  icon: string;
  image: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  acceptingOrders: boolean;
  makerBaseFee: number;
  takerBaseFee: number;
  tags: string[];
  createdAt: string;
  /** Where it is in its life; `closed` and `acceptingOrders` follow it (applyState). */
  state: MarketState;
  /** Collateral base units per whole token of each outcome, once resolved. */
  payouts: Payouts | null;
  closedAt: string | null;
  resolvedAt: string | null;
}

export interface NewMarket {
  conditionId: string;
  question: string;
  tokens: [string, string];
  outcomes: [string, string];
  tickSize: TickSize;
  minOrderSize: number;
  negRisk: boolean;
  questionId?: string;
  description?: string;
  slug?: string;
  endDateIso?: string | null;
  icon?: string;
  image?: string;
  tags?: string[];
}

export function isTickSize(value: unknown): value is TickSize {
  return typeof value === 'string' && (TICK_SIZES as readonly string[]).includes(value);
}

interface MarketRow {
  condition_id: string;
  market_id: string;
  question: string;
  question_id: string;
  description: string;
  market_slug: string;
  token0: string;
  token1: string;
  outcome0: string;
  outcome1: string;
  tick_size: string;
  min_order_size: string;
  neg_risk: boolean;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  end_date_iso: Date | null;
  game_start_time: Date | null;
  icon: string;
  image: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  maker_base_fee: number;
  taker_base_fee: number;
  tags: string[];
  created_at: Date;
  state: MarketState;
  payouts: string[] | null;
  closed_at: Date | null;
  resolved_at: Date | null;
}

function fromRow(row: MarketRow): MarketRecord {
  const tickSize = row.tick_size as TickSize;
  return {
    conditionId: row.condition_id,
    marketId: Number(row.market_id),
    question: row.question,
    questionId: row.question_id,
    description: row.description,
    slug: row.market_slug,
    tokens: [row.token0, row.token1],
    outcomes: [row.outcome0, row.outcome1],
    tickSize,
    ticksPerUnit: TICKS_PER_UNIT[tickSize],
    minOrderSize: Number(row.min_order_size),
    negRisk: row.neg_risk,
    negRiskMarketId: row.neg_risk_market_id,
    negRiskRequestId: row.neg_risk_request_id,
    endDateIso: row.end_date_iso?.toISOString() ?? null,
    gameStartTime: row.game_start_time?.toISOString() ?? null,
    icon: row.icon,
    image: row.image,
    active: row.active,
    closed: row.closed,
    archived: row.archived,
    acceptingOrders: row.accepting_orders,
    makerBaseFee: row.maker_base_fee,
    takerBaseFee: row.taker_base_fee,
    tags: row.tags,
    createdAt: row.created_at.toISOString(),
    state: row.state,
    payouts: row.payouts === null ? null : [Number(row.payouts[0]), Number(row.payouts[1])],
    closedAt: row.closed_at?.toISOString() ?? null,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
  };
}

/**
 * A market's record after a lifecycle step (a shard's `lifecycle` event at `at` ms, or the
 * ledger's state at recovery): closed once closed or resolved, taking orders only while open.
 */
export function applyState(
  record: MarketRecord,
  state: MarketState,
  payouts: Payouts | null,
  at: { closedAt?: string | null; resolvedAt?: string | null } = {},
): void {
  record.state = state;
  record.payouts = payouts;
  record.closed = state === 'closed' || state === 'resolved';
  record.acceptingOrders = state === 'open';
  if (at.closedAt !== undefined) record.closedAt = at.closedAt;
  if (at.resolvedAt !== undefined) record.resolvedAt = at.resolvedAt;
}

const UNIQUE_VIOLATION = '23505';

export class MarketRegistry {
  private readonly byCondition = new Map<string, MarketRecord>();
  private readonly byToken = new Map<string, { market: MarketRecord; token: TokenIndex }>();
  /** Markets in listing order (market id ascending). */
  private readonly ordered: MarketRecord[] = [];

  constructor(private readonly sql: Sql) {}

  /** Takes in every stored market it does not know yet (again at a takeover); all, in listing order. */
  async load(): Promise<MarketRecord[]> {
    const rows = await this.sql<MarketRow[]>`SELECT * FROM markets ORDER BY market_id`;
    for (const row of rows) if (!this.byCondition.has(row.condition_id)) this.remember(fromRow(row));
    return this.ordered;
  }

  /**
   * Makes a market: inserts it and has `open` open it (in its shard) in one transaction, so it is
   * either stored and trading or, when `open` throws, not stored at all (the error is the
   * reason). Refuses a condition id or token id that exists already (also one a concurrent
   * creation took: Postgres holds every token id once, in market_tokens). A market with this
   * condition id that Postgres has and this registry does not was written by a creation whose
   * answer was lost (the connection cut at the commit): it is opened, taken in and returned, as if
   * created now, whatever it holds (the caller compares).
   */
  async create(market: NewMarket, open: (record: MarketRecord) => Promise<void>): Promise<MarketRecord | 'exists'> {
    if (this.byCondition.has(market.conditionId) || market.tokens.some((t) => this.byToken.has(t))) return 'exists';
    let record = await this.sql
      .begin(async (tx) => {
        const [row] = await this.insert(tx as unknown as Sql, market);
        if (row === undefined) return undefined;
        const made = fromRow(row);
        await open(made);
        return made;
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
        throw error;
      });
    if (record === undefined) {
      const [lost] = await this.sql<MarketRow[]>`SELECT * FROM markets WHERE condition_id = ${market.conditionId}`;
      if (lost === undefined || this.byCondition.has(lost.condition_id)) return 'exists';
      record = fromRow(lost);
      await open(record);
    }
    // A creation that ran alongside (its answer came later) may have taken it in meanwhile.
    if (this.byCondition.has(record.conditionId)) return 'exists';
    this.remember(record);
    return record;
  }

  private insert(sql: Sql, market: NewMarket) {
    return sql<MarketRow[]>`
      INSERT INTO markets (condition_id, question, token0, token1, outcome0, outcome1, tick_size, min_order_size, neg_risk,
                           question_id, description, market_slug, end_date_iso, icon, image, tags)
      VALUES (${market.conditionId}, ${market.question}, ${market.tokens[0]}, ${market.tokens[1]}, ${market.outcomes[0]},
              ${market.outcomes[1]}, ${market.tickSize}, ${market.minOrderSize}, ${market.negRisk}, ${market.questionId ?? ''},
              ${market.description ?? ''}, ${market.slug ?? ''}, ${market.endDateIso ?? null}, ${market.icon ?? ''},
              ${market.image ?? ''}, ${market.tags ?? []})
      ON CONFLICT DO NOTHING
      RETURNING *`;
  }

  /**
   * A market as another process has it (a gateway told by the core): taken in when new, or its
   * record brought up to date (a lifecycle step changed its state) in place, where routes hold it.
   */
  adopt(record: MarketRecord): void {
    const known = this.byCondition.get(record.conditionId);
    if (known === undefined) this.remember(record);
    else if (known !== record) Object.assign(known, record);
  }

  private remember(record: MarketRecord): void {
    this.byCondition.set(record.conditionId, record);
    record.tokens.forEach((token, index) => this.byToken.set(token, { market: record, token: index as TokenIndex }));
    // At its market id's place: creations running together finish in another order than their
    // ids, and a restart lists by id. Listed as they finish, a restart would reorder the listing,
    // and a client paging by offset across it would see a market twice and miss another.
    let at = this.ordered.length;
    while (at > 0 && this.ordered[at - 1]!.marketId > record.marketId) at--;
    this.ordered.splice(at, 0, record);
  }

  /** A market by condition id, in any case (ids are stored lower-case, as created). */
  get(conditionId: string): MarketRecord | undefined {
    return this.byCondition.get(conditionId) ?? this.byCondition.get(conditionId.toLowerCase());
  }

  byTokenId(tokenId: string): { market: MarketRecord; token: TokenIndex } | undefined {
    return this.byToken.get(tokenId);
  }

  list(): readonly MarketRecord[] {
    return this.ordered;
  }
}

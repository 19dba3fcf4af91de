// The catalog's in-memory records, one per Postgres row, with the rendered JSON each one caches
// (cleared whenever the record or anything it shows changes). Dates are ISO 8601 strings.

export type EntityKind = 'tag' | 'series' | 'event' | 'market' | 'profile' | 'comment';

/** Pre-serialised JSON of a record, built on first read and dropped on change. */
export interface RenderCache {
  /** The shape used in lists. */
  list?: string;
  /** The shape used for a single result. */
  detail?: string;
  /** Without nested relations (a market inside an event, a series inside an event). */
  bare?: string;
  /** The event summary a single market or a series carries. */
  summary?: string;
  /** The event summary a market carries in lists (id, ticker, slug, title). */
  short?: string;
}

export interface TagRecord {
  id: number;
  label: string;
  slug: string;
  requiresTranslation: boolean;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

export interface SeriesRecord {
  id: number;
  ticker: string;
  slug: string;
  title: string;
  seriesType: string;
  recurrence: string;
  image: string;
  icon: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  creator: string;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

export interface EventRecord {
  id: number;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  startDate: string | null;
  creationDate: string;
  endDate: string | null;
  image: string;
  icon: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  closedTime: string | null;
  creator: string;
  eventMetadata: unknown;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

export interface MarketRecord {
  id: number;
  /** Lower-case; null when not linked to an order-book market. */
  conditionId: string | null;
  question: string;
  slug: string;
  questionId: string;
  description: string;
  resolutionSource: string;
  image: string;
  icon: string;
  startDate: string | null;
  endDate: string | null;
  outcomes: string[];
  /** Outcome token ids, from the order-book market; empty when not linked. */
  tokens: string[];
  tickSize: string | null;
  /** Tokens (not base units); null when not linked. */
  minOrderSize: number | null;
  negRisk: boolean;
  /** The order book takes orders for it (its market row's accepting_orders); false when not linked. */
  acceptingOrders: boolean;
  /**
   * What each outcome paid once its order-book market resolved ("1" and "0", or "0.5" each), in
   * place of the live prices; null before.
   */
  resolvedPrices: string[] | null;
  active: boolean;
  /** Closed here, or its order-book market closed or resolved. */
  closed: boolean;
  archived: boolean;
  closedTime: string | null;
  creator: string;
  volume: number;
  volume24hr: number;
  liquidity: number;
  competitive: number;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

export interface ProfileRecord {
  id: number;
  proxyWallet: string;
  baseAddress: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  xUsername: string;
  displayUsernamePublic: boolean;
  verifiedBadge: boolean;
  isMod: boolean;
  isCreator: boolean;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

export type ParentEntityType = 'Event' | 'Series' | 'market';
export const PARENT_ENTITY_TYPES: readonly ParentEntityType[] = ['Event', 'Series', 'market'];

export interface CommentRecord {
  id: number;
  body: string;
  parentEntityType: ParentEntityType;
  parentEntityId: number;
  /** Always a top-level comment; null for a top-level comment itself. */
  parentCommentId: number | null;
  userAddress: string;
  replyAddress: string;
  reactions: unknown[];
  reactionCount: number;
  reportCount: number;
  createdAt: string;
  updatedAt: string;
  cache: RenderCache;
}

/** "Event:12" — the key comments are grouped by. */
export function entityKey(type: ParentEntityType, id: number): string {
  return `${type}:${id}`;
}

// The order-book market listing (cursor pages of 1000) and one market by condition id, in the
// contract's shapes; token prices are the live midpoints (or last trade) from the book read model,
// and what the market's own row leaves empty (event, tags, images, neg-risk group, metadata) comes
// from the catalog market linked to it (@pmx/market-meta).

import { HttpError, type Route } from '@pmx/http';
import { catalogMetadata, type CatalogLink } from '@pmx/market-meta';
import type { BookCache } from '../market-data/book-cache.ts';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';
import { cursorPage } from './token-param.ts';
import { PAYOUT_UNIT } from '@pmx/events';

/** The detail's `status`: active (open), paused, closed or resolved. */
const STATUS = { open: 'active', paused: 'paused', closed: 'closed', resolved: 'resolved' } as const;

const PAGE_SIZE = 1000;
const CONDITION_ID = /^0x[0-9a-fA-F]{1,64}$/;

/** A resolved market's tokens are worth their payouts; otherwise the live price. */
function tokenPrice(books: BookCache, market: MarketRecord, token: 0 | 1): number {
  if (market.payouts !== null) return market.payouts[token] / PAYOUT_UNIT;
  const price = books.midpoint(market, token) ?? books.lastTradePrice(market, token);
  return price === null ? 0.5 : Number(price);
}

/** The catalog link of a market, if the catalog lists it. */
export type LinkOf = (conditionId: string) => CatalogLink | undefined;

const NO_EVENT = { id: '', slug: '', title: '', ticker: '', description: '' };

export function marketListing(market: MarketRecord, books: BookCache, link?: CatalogLink) {
  return {
    enable_order_book: true,
    active: market.active,
    closed: market.closed,
    archived: market.archived,
    accepting_orders: market.acceptingOrders,
    accepting_order_timestamp: market.createdAt,
    minimum_order_size: market.minOrderSize / 1_000_000,
    minimum_tick_size: Number(market.tickSize),
    condition_id: market.conditionId,
    question_id: market.questionId,
    question: market.question,
    description: market.description,
    market_slug: market.slug,
    end_date_iso: market.endDateIso ?? '',
    game_start_time: market.gameStartTime ?? '',
    seconds_delay: 0,
    fpmm: '',
    maker_base_fee: market.makerBaseFee,
    taker_base_fee: market.takerBaseFee,
    notifications_enabled: false,
    neg_risk: market.negRisk,
    neg_risk_market_id: market.negRiskMarketId || (link?.negRiskMarketId ?? ''),
    neg_risk_request_id: market.negRiskRequestId,
    icon: market.icon || (link?.icon ?? ''),
    image: market.image || (link?.image ?? ''),
    rewards: { rates: [], min_size: 0, max_spread: 0 },
    is_50_50_outcome: market.payouts !== null && market.payouts[0] === market.payouts[1],
    tokens: market.tokens.map((tokenId, i) => ({
      token_id: tokenId,
      outcome: market.outcomes[i]!,
      price: tokenPrice(books, market, i as 0 | 1),
      winner: market.payouts?.[i] === PAYOUT_UNIT,
    })),
    tags: market.tags.length > 0 ? market.tags : (link?.tags ?? []),
  };
}

export function marketDetail(market: MarketRecord, books: BookCache, link?: CatalogLink) {
  return {
    ...marketListing(market, books, link),
    status: STATUS[market.state],
    market_id: market.marketId,
    slug: market.slug,
    assets_ids: [...market.tokens],
    outcomes: [...market.outcomes],
    event: link?.event ?? NO_EVENT,
    raw_metadata: link === undefined ? {} : catalogMetadata(link),
  };
}

/**
 * `assertReady` throws the HttpError a market answers while it cannot trade (its shard recovers
 * after a restart: 425, or trading halted: 503). Listings carry live prices, so they wait for the
 * shards like the book reads do, rather than show every market at the 0.5 placeholder meanwhile.
 */
export function marketRoutes(
  markets: MarketRegistry,
  books: BookCache,
  assertReady: (market: string) => void = () => {},
  linkOf: LinkOf = () => undefined,
): Route[] {
  const ready = (market: MarketRecord) => {
    assertReady(market.conditionId);
    return market;
  };
  return [
    {
      method: 'GET',
      path: '/markets',
      handler: (ctx) => {
        const page = cursorPage(markets.list(), ctx.query.get('next_cursor'), PAGE_SIZE);
        return { body: { ...page, data: page.data.map((m) => marketListing(ready(m), books, linkOf(m.conditionId))) } };
      },
    },
    {
      method: 'GET',
      path: '/markets/:condition_id',
      handler: (ctx) => {
        const id = (ctx.params.condition_id ?? '').toLowerCase(); // stored lower-case, as the operator created it
        if (!CONDITION_ID.test(id)) throw new HttpError(400, 'condition_id must be 0x-prefixed hex');
        const market = markets.get(id);
        if (market === undefined) throw new HttpError(404, 'market not found');
        return { body: marketDetail(ready(market), books, linkOf(id)) };
      },
    },
  ];
}

// Order-book market data, answered from the front end's book read model (never a database):
// books, prices, midpoints, spreads, last trade (each also for many tokens), tick size and neg-risk flag.

import { HttpError, type RequestContext, type Route } from '@pmx/http';
import { formatPrice } from '@pmx/codec';
import type { BookCache } from '../market-data/book-cache.ts';
import type { MarketRegistry } from '../markets/market-registry.ts';
import { queryToken, tokenList, tokenRef, type TokenRef } from './token-param.ts';

const MAX_TOKENS = 500;

/** `assertReady` throws the HttpError a market answers while it cannot trade (425, or 503 after a halt). */
export function marketDataRoutes(
  markets: MarketRegistry,
  books: BookCache,
  assertReady: (market: string) => void,
): Route[] {
  /** A token whose shard has recovered. */
  const ready = (ref: TokenRef): TokenRef => {
    assertReady(ref.market.conditionId);
    return ref;
  };
  /** BUY → the best bid, SELL → the best ask (docs/reference/clob.md), as a decimal string or null. */
  const sidePrice = (ref: TokenRef, side: 'BUY' | 'SELL'): string | null => {
    const quote = books.quote(ref.market, ref.token);
    const ticks = side === 'BUY' ? quote.bid : quote.ask;
    return ticks === null ? null : formatPrice(ticks, ref.market.ticksPerUnit);
  };
  // Either case: the contract and the official client send BUY/SELL, hand-written clients of the
  // real service often buy/sell.
  const side = (value: string | null): 'BUY' | 'SELL' => {
    const upper = value?.toUpperCase();
    if (upper === 'BUY' || upper === 'SELL') return upper;
    throw new HttpError(400, 'side must be BUY or SELL');
  };
  /** `{token id: value}` for a POST body of `[{token_id}]`. */
  const byToken = <T>(ctx: RequestContext<any>, value: (ref: TokenRef) => T): Record<string, T> => {
    const out: Record<string, T> = {};
    for (const id of tokenList(ctx, MAX_TOKENS)) {
      const ref = ready(tokenRef(markets, id));
      out[ref.tokenId] = value(ref);
    }
    return out;
  };
  return [
    {
      method: 'GET',
      path: '/book',
      handler: (ctx) => {
        const ref = ready(queryToken(ctx, markets));
        return { body: books.bookJson(ref.market, ref.token) };
      },
    },
    {
      method: 'POST',
      path: '/books',
      handler: (ctx) => ({
        body: `[${tokenList(ctx, MAX_TOKENS)
          .map((id) => {
            const ref = ready(tokenRef(markets, id));
            return books.bookJson(ref.market, ref.token);
          })
          .join(',')}]`,
      }),
    },
    {
      method: 'POST',
      path: '/prices',
      handler: (ctx) => ({
        body: byToken(ctx, (ref) => ({ BUY: sidePrice(ref, 'BUY') ?? '', SELL: sidePrice(ref, 'SELL') ?? '' })),
      }),
    },
    // The official client's batch reads (getMidpoints, getSpreads, getLastTradesPrices): the
    // single reads' answers for up to 500 tokens, "" where the single read would have none.
    {
      method: 'POST',
      path: '/midpoints',
      handler: (ctx) => ({ body: byToken(ctx, (ref) => books.midpoint(ref.market, ref.token) ?? '') }),
    },
    {
      method: 'POST',
      path: '/spreads',
      handler: (ctx) => ({ body: byToken(ctx, (ref) => books.spread(ref.market) ?? '') }),
    },
    {
      method: 'POST',
      path: '/last-trades-prices',
      handler: (ctx) => ({
        body: tokenList(ctx, MAX_TOKENS).map((id) => {
          const ref = ready(tokenRef(markets, id));
          return { token_id: ref.tokenId, price: books.lastTradePrice(ref.market, ref.token) ?? '' };
        }),
      }),
    },
    {
      method: 'GET',
      path: '/price',
      handler: (ctx) => {
        const ref = ready(queryToken(ctx, markets));
        const wanted = side(ctx.query.get('side'));
        const price = sidePrice(ref, wanted);
        if (price === null)
          throw new HttpError(404, `no ${wanted === 'BUY' ? 'bids' : 'asks'} for the requested token id`);
        return { body: { price } };
      },
    },
    {
      method: 'GET',
      path: '/midpoint',
      handler: (ctx) => {
        const ref = ready(queryToken(ctx, markets));
        const mid = books.midpoint(ref.market, ref.token);
        if (mid === null) throw new HttpError(404, 'no midpoint: the book needs both a bid and an ask');
        return { body: { mid } };
      },
    },
    {
      method: 'GET',
      path: '/spread',
      handler: (ctx) => {
        const ref = ready(queryToken(ctx, markets));
        const spread = books.spread(ref.market);
        if (spread === null) throw new HttpError(404, 'no spread: the book needs both a bid and an ask');
        return { body: { spread } };
      },
    },
    {
      method: 'GET',
      path: '/last-trade-price',
      handler: (ctx) => {
        const ref = ready(queryToken(ctx, markets));
        return { body: { price: books.lastTradePrice(ref.market, ref.token) ?? '' } };
      },
    },
    {
      method: 'GET',
      path: '/tick-size',
      handler: (ctx) => ({ body: { minimum_tick_size: Number(queryToken(ctx, markets).market.tickSize) } }),
    },
    {
      method: 'GET',
      path: '/neg-risk',
      handler: (ctx) => ({ body: { neg_risk: queryToken(ctx, markets).market.negRisk } }),
    },
  ];
}

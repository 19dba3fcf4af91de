// Outcome prices for `outcomePrices`, fetched from the trading front end in bulk every few
// seconds — never per request. The source is the clob's own market listing (GET /markets, pages
// of 1000 with a cursor), whose token prices are the book midpoint, else the last trade, else
// 0.5: the same number the clob shows, at ~8 requests per refresh for 8,000 markets and under
// the clob's general rate limit only. Until a first answer (or when a market is unknown to the
// clob) a market shows an equal split; when the clob is unreachable the last prices stay.

import type { CatalogProjection } from './catalog-projection.ts';
import { ClobPriceFeed } from '@pmx/market-meta';
import { logger } from '@pmx/config';

export interface PriceFeedOptions {
  clobUrl: string;
  intervalMs: number;
  log?: (message: string) => void;
}

export class PriceFeed extends ClobPriceFeed {
  constructor(
    private readonly projection: CatalogProjection,
    options: PriceFeedOptions,
  ) {
    super({
      clobUrl: options.clobUrl,
      intervalMs: options.intervalMs,
      untilAnswered: 'markets show an equal split',
      log: options.log ?? ((message: string) => logger('catalog').warn(message)),
    });
  }

  protected apply(listed: Map<string, number[]>): void {
    const fresh = new Map([...listed].map(([conditionId, prices]) => [conditionId, prices.map(String)]));
    const prices = this.projection.prices;
    const changed: string[] = [];
    for (const [conditionId, next] of fresh) {
      const previous = prices.get(conditionId);
      if (previous !== undefined && previous.length === next.length && previous.every((p, i) => p === next[i]))
        continue;
      prices.set(conditionId, next);
      changed.push(conditionId);
    }
    if (changed.length > 0) this.projection.view.state.pricesChanged(changed);
  }
}

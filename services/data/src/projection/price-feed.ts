// curPrice of open markets: the clob's own prices (book midpoint, else last trade, else 0.5), read
// from its market listing in bulk every few seconds, never per request.

import { logger } from '@pmx/config';
import { ClobPriceFeed } from '@pmx/market-meta';
import type { AccountProjection } from './account-projection.ts';

export class PriceFeed extends ClobPriceFeed {
  constructor(
    private readonly projection: AccountProjection,
    options: { clobUrl: string; intervalMs: number; log?: (message: string) => void },
  ) {
    super({
      clobUrl: options.clobUrl,
      intervalMs: options.intervalMs,
      untilAnswered: 'positions are valued at 0.5',
      log: options.log ?? ((message: string) => logger('data').warn(message)),
    });
  }

  protected apply(prices: Map<string, number[]>): void {
    this.projection.state.setPrices(prices);
  }
}

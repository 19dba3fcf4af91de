// Outcome prices for `outcomePrices`, fetched from the trading front end in bulk every few
// seconds — never per request. The source is the clob's own market listing (GET /markets, pages
// of 1000 with a cursor), whose token prices are the book midpoint, else the last trade, else
// 0.5: the same number the clob shows, at ~8 requests per refresh for 8,000 markets and under
// the clob's general rate limit only. Until a first answer (or when a market is unknown to the
// clob) a market shows an equal split; when the clob is unreachable the last prices stay.

import type { CatalogProjection } from './catalog-projection.ts';
import { PeriodicRefresh } from './periodic-refresh.ts';
import { logger } from '@pmx/config';

const PAGE_LIMIT = 1000;
const REQUEST_TIMEOUT_MS = 3000;
const END_CURSOR = 'LTE=';

interface ListingPage {
  data: { condition_id: string; tokens: { token_id: string; price: number }[] }[];
  next_cursor: string;
}

export interface PriceFeedOptions {
  clobUrl: string;
  intervalMs: number;
  log?: (message: string) => void;
}

export class PriceFeed extends PeriodicRefresh {
  private failing = false;
  /** The clob has answered once: until then a failure is the usual wait for it to start. */
  private answered = false;

  constructor(
    private readonly projection: CatalogProjection,
    private readonly options: PriceFeedOptions,
  ) {
    super(options.intervalMs);
  }

  protected async work(): Promise<void> {
    const log = this.options.log ?? ((message: string) => logger('catalog').warn(message));
    const fresh = new Map<string, string[]>();
    try {
      let cursor = 'MA==';
      for (let page = 0; page < PAGE_LIMIT && cursor !== END_CURSOR; page++) {
        const url = `${this.options.clobUrl}/markets?next_cursor=${encodeURIComponent(cursor)}`;
        const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
        const body = (await response.json()) as ListingPage;
        for (const market of body.data)
          fresh.set(
            market.condition_id.toLowerCase(),
            market.tokens.map((t) => String(t.price)),
          );
        if (body.next_cursor === cursor) break;
        cursor = body.next_cursor;
      }
    } catch (error) {
      // Started together, the catalog asks before the clob listens: said as a wait, not a fault
      // (or every clean start would log that the clob is not answering).
      if (!this.failing) {
        const reason = (error as Error).message;
        log(
          this.answered
            ? `outcome prices: the clob at ${this.options.clobUrl} is not answering (${reason}); keeping the last prices`
            : `outcome prices: waiting for the clob at ${this.options.clobUrl} (${reason}); markets show an equal split until it answers`,
        );
      }
      this.failing = true;
      return;
    }
    if (this.failing)
      log(this.answered ? 'outcome prices: the clob answers again' : 'outcome prices: the clob answers');
    this.failing = false;
    this.answered = true;
    this.apply(fresh);
  }

  private apply(fresh: Map<string, string[]>): void {
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

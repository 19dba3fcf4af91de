// Every order-book market's outcome prices as the clob shows them: its market listing (GET
// /markets, cursor pages of 1000), whose token prices are the book midpoint, else the last trade,
// else 0.5 — about 8 requests for 8,000 markets, so a read service can poll it every few seconds.

import { PeriodicRefresh } from './periodic-refresh.ts';

const FIRST_CURSOR = 'MA==';
const END_CURSOR = 'LTE=';
const MAX_PAGES = 1000;
const DEFAULT_TIMEOUT_MS = 3000;

interface ListingPage {
  data: { condition_id: string; tokens: { token_id: string; price: number }[] }[];
  next_cursor: string;
}

/**
 * Condition id (lower-case) → the price of each outcome token, in the listing's order. Throws when
 * the clob does not answer a page with 200 within `timeoutMs`.
 */
export async function readClobPrices(clobUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Map<string, number[]>> {
  const prices = new Map<string, number[]>();
  let cursor = FIRST_CURSOR;
  for (let page = 0; page < MAX_PAGES && cursor !== END_CURSOR; page++) {
    const url = `${clobUrl}/markets?next_cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    const body = (await response.json()) as ListingPage;
    for (const market of body.data)
      prices.set(
        market.condition_id.toLowerCase(),
        market.tokens.map((t) => t.price),
      );
    if (body.next_cursor === cursor) break;
    cursor = body.next_cursor;
  }
  return prices;
}

export interface ClobPriceFeedOptions {
  clobUrl: string;
  /** 0: never on its own (refresh() still reads). */
  intervalMs: number;
  /** What is shown until the clob first answers, for the wait's log line. */
  untilAnswered: string;
  log: (message: string) => void;
  timeoutMs?: number;
}

/**
 * Reads the clob's prices every intervalMs and hands each complete read to `apply`. A clob not yet
 * up (services start together) is logged as a wait, an outage after it answered as one, each once,
 * and the last prices stay in place meanwhile.
 */
export abstract class ClobPriceFeed extends PeriodicRefresh {
  private failing = false;
  /** The clob has answered once: until then a failure is the usual wait for it to start. */
  private answered = false;

  constructor(private readonly feed: ClobPriceFeedOptions) {
    super(feed.intervalMs);
  }

  protected abstract apply(prices: Map<string, number[]>): void;

  protected async work(): Promise<void> {
    const { clobUrl, log } = this.feed;
    let prices: Map<string, number[]>;
    try {
      prices = await readClobPrices(clobUrl, this.feed.timeoutMs);
    } catch (error) {
      // Started together, a read service asks before the clob listens: said as a wait, not a fault.
      if (!this.failing) {
        const reason = (error as Error).message;
        log(
          this.answered
            ? `outcome prices: the clob at ${clobUrl} is not answering (${reason}); keeping the last prices`
            : `outcome prices: waiting for the clob at ${clobUrl} (${reason}); ${this.feed.untilAnswered} until it answers`,
        );
      }
      this.failing = true;
      return;
    }
    if (this.failing)
      log(this.answered ? 'outcome prices: the clob answers again' : 'outcome prices: the clob answers');
    this.failing = false;
    this.answered = true;
    this.apply(prices);
  }
}

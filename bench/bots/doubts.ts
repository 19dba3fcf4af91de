// What a bot does with an answer that leaves the outcome unknown (a 5xx such as "the link to the
// trading core dropped …; the command may or may not have been carried out", no answer, a
// timeout, or "Duplicated." for an order it sent again): it does not guess. It looks each order up
// by its id (the signed order's digest) and adopts what the exchange says — live with its matched
// size, closed with its trades, or unknown to it and so never placed — and reads back the orders
// of a cancel whose outcome is unknown. docs/guides/bots.md says how the run counts them.

import { baseUnits, type Belief, type FoundOrder } from './belief.ts';
import type { HttpAnswer } from './exchange-http.ts';
import type { RequestKind } from './run-metrics.ts';

/** What became of one order or cancel that did not simply succeed. */
export type Failure = 'refused' | 'recovering' | 'unknown';

/**
 * A batch item's refusal has no status of its own: its wording tells. The exchange's 5xx
 * wordings (link dropped, stopping, halted, a store did not answer, internal error) and a
 * duplicate (a retried id that had landed) leave the outcome to be looked up.
 */
const UNKNOWN_WORDING =
  /may or may not|shows in GET \/data\/order|internal server error|halted|did not answer|Duplicated\./;
const RECOVERING_WORDING = /recovering after a restart/;

/** How a refusal reads: `status` is the HTTP status (undefined when no answer came, 200 for a batch item). */
export function failureOf(status: number | undefined, message: string): Failure {
  if (status === undefined || status >= 500) return 'unknown';
  if (status === 425 || RECOVERING_WORDING.test(message)) return 'recovering';
  return UNKNOWN_WORDING.test(message) ? 'unknown' : 'refused';
}

/** The part of a bot the look-ups use: its belief and its level-2 requests. */
export interface LookupClient {
  readonly belief: Belief;
  authed(method: string, pathWithQuery: string, kind: RequestKind): Promise<HttpAnswer | undefined>;
}

interface WireOrder {
  status: 'LIVE' | 'MATCHED' | 'UNMATCHED' | 'CANCELED';
  size_matched: string;
  associate_trades?: string[];
}

interface WireTrade {
  id: string;
  taker_order_id: string;
  asset_id: string;
  maker_orders: { matched_amount: string; price: string; asset_id: string }[];
}

/** Cents of a price on a 0.01 tick ("0.45" → 45), exact. */
const centsOf = (price: string) => baseUnits(price) / 10_000;

/**
 * What an order took when placed, from its taker trades: each maker fill at the maker's price, on
 * the other token's side at 100 − that price (a mint or a merge). What a BUY gives is collateral.
 */
export function takerAmounts(
  orderId: string,
  side: 'BUY' | 'SELL',
  trades: readonly WireTrade[],
): Pick<FoundOrder, 'making' | 'taking' | 'takerTrades'> {
  let tokens = 0;
  let collateral = 0;
  const takerTrades: string[] = [];
  for (const trade of trades) {
    if (trade.taker_order_id !== orderId) continue;
    takerTrades.push(trade.id);
    for (const fill of trade.maker_orders) {
      const units = baseUnits(fill.matched_amount);
      const cents = fill.asset_id === trade.asset_id ? centsOf(fill.price) : 100 - centsOf(fill.price);
      tokens += units;
      collateral += (units * cents) / 100;
    }
  }
  return side === 'BUY'
    ? { making: collateral, taking: tokens, takerTrades }
    : { making: tokens, taking: collateral, takerTrades };
}

/** A read the exchange could not give yet (no answer, 425 past its retries, 5xx): try again later. */
const unanswered = (answer: HttpAnswer | undefined) =>
  answer === undefined || (answer.status !== 200 && answer.status !== 404);

/** How a look-up settled an order in doubt: adopted with its taker trades, or found never placed. */
export type Settled = { placed: true; takerTrades: number } | { placed: false };

/**
 * Looks one order in doubt up; undefined while the exchange cannot tell yet (recovering, or its
 * trades not all readable yet) or another look-up settled it meanwhile.
 */
export async function settleOrder(client: LookupClient, orderId: string): Promise<Settled | undefined> {
  const doubt = client.belief.inDoubt.get(orderId);
  if (doubt === undefined) return undefined;
  const answer = await client.authed('GET', `/data/order/${orderId}`, 'read');
  if (unanswered(answer)) return undefined;
  if (answer!.status === 404) return client.belief.notPlaced(orderId) ? { placed: false } : undefined;
  const wire = answer!.body as WireOrder;
  const trades: WireTrade[] = [];
  for (const id of wire.associate_trades ?? []) {
    const page = await client.authed('GET', `/data/trades?id=${encodeURIComponent(id)}`, 'read');
    const trade = page?.status === 200 ? (page.body as { data: WireTrade[] }).data.find((t) => t.id === id) : undefined;
    if (trade === undefined) return undefined;
    trades.push(trade);
  }
  const taken = takerAmounts(orderId, doubt.order.side, trades);
  const matched = baseUnits(wire.size_matched);
  const takerTokens = doubt.order.side === 'BUY' ? taken.taking : taken.making;
  if (takerTokens > matched) return undefined; // a listing between two states: read it again
  const found = { ...taken, matched, live: wire.status === 'LIVE' };
  return client.belief.adopt(orderId, found) ? { placed: true, takerTrades: taken.takerTrades.length } : undefined;
}

/** Reads back one open order whose cancel's outcome is unknown; false while it cannot be read. */
export async function settleCancel(client: LookupClient, orderId: string): Promise<boolean> {
  const { belief } = client;
  if (!belief.cancelsInDoubt.has(orderId)) return true;
  const answer = await client.authed('GET', `/data/order/${orderId}`, 'read');
  if (unanswered(answer)) return false;
  belief.cancelsInDoubt.delete(orderId);
  if (answer!.status === 404) {
    belief.close(orderId);
    return true;
  }
  const wire = answer!.body as WireOrder;
  belief.matchedNow(orderId, baseUnits(wire.size_matched));
  if (wire.status !== 'LIVE') belief.close(orderId, wire.status === 'CANCELED' ? Date.now() : undefined);
  return true;
}

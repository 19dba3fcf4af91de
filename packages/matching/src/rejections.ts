// Plain-English explanations of rejections, for logs and for users of the engine directly.
// The HTTP edge maps reasons to the exchange's own wire messages.

import type { RejectReason } from './types.ts';

const MESSAGES: Record<RejectReason, string> = {
  'unknown-market': 'the market does not exist',
  'invalid-token': 'the token must be the first or second outcome of the market',
  'invalid-side': 'the side must be BUY or SELL',
  'invalid-price': 'the price must lie on the market tick, strictly between 0 and 1',
  'invalid-size': 'the size must be a positive whole number of lots (0.01 token)',
  'size-below-minimum': "the size is below the market's minimum order size",
  'invalid-order-type': 'the order type must be GTC, GTD, FOK or FAK',
  'invalid-expiration': 'a GTD order needs an expiration in the future',
  'post-only-type': 'post-only orders must be GTC or GTD',
  'post-only-crosses': 'the post-only order would cross the book',
  'fok-not-filled': 'the FOK order could not be filled completely at once',
  'fak-no-match': 'no resting order crosses the FAK order',
};

export function describeRejection(reason: RejectReason): string {
  return MESSAGES[reason];
}

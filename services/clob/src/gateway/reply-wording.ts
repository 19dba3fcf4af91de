// Order step 6 of 6 (verify → admit → reserve → match → queue → reply): the core's result codes
// as HTTP statuses and the real service's wording (docs/design/errors-and-limits.md), the one
// place where they are decided.

import { HttpError } from '@pmx/http';
import { ResultCode, type Refusal } from '../link/result-codes.ts';
import { ordersRefused } from '../markets/market-lifecycle.ts';

type Wording = { status: number; message: (orderId: string, detail: string | undefined) => string };

/** The core's detail when it sent one (it names the shard, the wait, the reason), else this. */
const DETAIL_OR = (fallback: string) => (_: string, detail: string | undefined) => detail ?? fallback;

const WORDING: Record<Refusal['code'], Wording> = {
  // Paused or closed between the gateway's check and the shard (which decides in sequence).
  MARKET_PAUSED: { status: 400, message: () => ordersRefused('paused') },
  MARKET_CLOSED: { status: 400, message: () => ordersRefused('closed') },
  FOK_NOT_FILLED: {
    status: 400,
    message: () => "order couldn't be fully filled. FOK orders are fully filled or killed.",
  },
  FAK_NO_MATCH: {
    status: 400,
    message: () =>
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
  },
  POST_ONLY_CROSSES: { status: 400, message: () => 'invalid post-only order: order crosses book' },
  POST_ONLY_TYPE: { status: 400, message: () => 'invalid post-only order: only GTC and GTD order types are allowed' },
  INVALID_EXPIRATION: { status: 400, message: () => 'invalid expiration' },
  UNKNOWN_MARKET: { status: 400, message: () => 'the market is not yet ready to process new orders' },
  INVALID_PRICE: { status: 400, message: (id) => `order ${id} is invalid. Price breaks minimum tick size rule` },
  INVALID_SIZE: { status: 400, message: (id) => `order ${id} is invalid. Size must be a multiple of 0.01` },
  SIZE_BELOW_MINIMUM: { status: 400, message: (id) => `order ${id} is invalid. Size lower than the minimum` },
  INVALID_ORDER_TYPE: { status: 400, message: () => 'Invalid order payload: orderType must be GTC, GTD, FOK or FAK' },
  INVALID_SIDE: { status: 400, message: () => 'Invalid order payload: side must be BUY or SELL' },
  INVALID_TOKEN: { status: 400, message: () => 'Invalid order payload: unknown token' },
  DUPLICATE: { status: 400, message: (id) => `order ${id} is invalid. Duplicated.` },
  INSUFFICIENT_BALANCE: { status: 400, message: () => 'not enough balance / allowance' },
  MAKER_NOT_CONTROLLED: {
    status: 400,
    message: (_, maker) => `the order maker ${maker ?? ''} is not a registered proxy wallet of the signer`,
  },
  KEY_DELETED: { status: 401, message: () => 'Unauthorized/Invalid api key' },
  NOT_FOUND: { status: 404, message: DETAIL_OR("the order can't be found - already canceled or matched") },
  HEARTBEAT_REFUSED: { status: 400, message: DETAIL_OR('the heartbeat was refused') },
  BAD_REQUEST: { status: 400, message: DETAIL_OR('bad request') },
  RECOVERING: { status: 425, message: DETAIL_OR('the market is recovering after a restart; retry shortly') },
  HALTED: {
    status: 503,
    message: DETAIL_OR('trading is halted after an internal fault; the exchange restarts and recovers from its ledger'),
  },
  SHARD_STALLED: {
    status: 503,
    message: DETAIL_OR('the shard cannot store its events now; the order was not placed: retry later'),
  },
  STOPPING: {
    status: 503,
    message: DETAIL_OR(
      'the exchange is stopping; retry once it is back (an order in flight shows in GET /data/order/{id} if it was placed)',
    ),
  },
  UNAVAILABLE: { status: 503, message: DETAIL_OR('a store the exchange needs did not answer; retry shortly') },
  NO_CORE: {
    status: 503,
    message: DETAIL_OR('the trading core does not answer (it may be failing over); nothing was placed: retry shortly'),
  },
  INTERNAL: { status: 500, message: () => 'internal server error' },
};

/** The HTTP error a refusal answers with; `orderId` for the messages that name the order. */
export function httpErrorOf(refusal: Refusal, orderId = ''): HttpError {
  const wording = WORDING[refusal.code];
  return new HttpError(wording.status, wording.message(orderId, refusal.detail));
}

/** A cancel's `not_canceled` reason for one order. */
export function notCanceledReason(refusal: Refusal): string {
  if (refusal.code === ResultCode.INTERNAL) return 'internal server error: the cancel did not complete; retry';
  return httpErrorOf(refusal).message;
}

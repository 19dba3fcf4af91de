// The one vocabulary in which the core answers a command (as exchange-core's CommandResultCode):
// every business outcome is a code, never an exception or an HTTP status. The gateway turns codes
// into HTTP statuses and the real service's wording in one place (gateway/reply-wording.ts).

import type { ShardRefusal } from '@pmx/events';

export const ResultCode = {
  OK: 'OK',
  // The shard's refusals (the engine's RejectReason, a market's state), one code each.
  MARKET_PAUSED: 'MARKET_PAUSED',
  MARKET_CLOSED: 'MARKET_CLOSED',
  FOK_NOT_FILLED: 'FOK_NOT_FILLED',
  FAK_NO_MATCH: 'FAK_NO_MATCH',
  POST_ONLY_CROSSES: 'POST_ONLY_CROSSES',
  POST_ONLY_TYPE: 'POST_ONLY_TYPE',
  INVALID_EXPIRATION: 'INVALID_EXPIRATION',
  UNKNOWN_MARKET: 'UNKNOWN_MARKET',
  INVALID_PRICE: 'INVALID_PRICE',
  INVALID_SIZE: 'INVALID_SIZE',
  SIZE_BELOW_MINIMUM: 'SIZE_BELOW_MINIMUM',
  INVALID_ORDER_TYPE: 'INVALID_ORDER_TYPE',
  INVALID_SIDE: 'INVALID_SIDE',
  INVALID_TOKEN: 'INVALID_TOKEN',
  // The core's own refusals of an order.
  DUPLICATE: 'DUPLICATE',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  MAKER_NOT_CONTROLLED: 'MAKER_NOT_CONTROLLED',
  KEY_DELETED: 'KEY_DELETED',
  /** Cancel: no open order of this key with that id. */
  NOT_FOUND: 'NOT_FOUND',
  /** A heartbeat the switch refuses (late, or with a stale id). */
  HEARTBEAT_REFUSED: 'HEARTBEAT_REFUSED',
  /** A request the core refuses as the caller's (a custody movement the market's state or a balance refuses): `detail` says why. */
  BAD_REQUEST: 'BAD_REQUEST',
  // Not the order's fault: try again.
  /** A shard still recovers after a start or a takeover. */
  RECOVERING: 'RECOVERING',
  /** Trading halted after a fault, until the core restarts and recovers from the ledger. */
  HALTED: 'HALTED',
  /** The shard's queue has not stored events for a while; the order was not placed. */
  SHARD_STALLED: 'SHARD_STALLED',
  /** The core is stopping (or its link dropped): placed or not, GET /data/order/{id} tells. */
  STOPPING: 'STOPPING',
  /** Postgres or Redis did not answer in time (a replay lookup, a switch's store). */
  UNAVAILABLE: 'UNAVAILABLE',
  /** No core answers the gateway: nothing was sent. */
  NO_CORE: 'NO_CORE',
  /** A fault in the core: logged there. */
  INTERNAL: 'INTERNAL',
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** The shard's refusals as codes. */
export const REJECT_CODES: Record<ShardRefusal, Refusal['code']> = {
  'market-paused': ResultCode.MARKET_PAUSED,
  'market-closed': ResultCode.MARKET_CLOSED,
  'fok-not-filled': ResultCode.FOK_NOT_FILLED,
  'fak-no-match': ResultCode.FAK_NO_MATCH,
  'post-only-crosses': ResultCode.POST_ONLY_CROSSES,
  'post-only-type': ResultCode.POST_ONLY_TYPE,
  duplicate: ResultCode.DUPLICATE,
  'invalid-expiration': ResultCode.INVALID_EXPIRATION,
  'unknown-market': ResultCode.UNKNOWN_MARKET,
  'invalid-price': ResultCode.INVALID_PRICE,
  'invalid-size': ResultCode.INVALID_SIZE,
  'size-below-minimum': ResultCode.SIZE_BELOW_MINIMUM,
  'invalid-order-type': ResultCode.INVALID_ORDER_TYPE,
  'invalid-side': ResultCode.INVALID_SIDE,
  'invalid-token': ResultCode.INVALID_TOKEN,
};

/** A refusal: its code and, where the wording names something (a shard, a wait), the detail. */
export interface Refusal {
  code: Exclude<ResultCode, 'OK'>;
  detail?: string;
}

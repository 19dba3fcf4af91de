// Reads a POST /order envelope into an order the exchange can act on, in two steps: the shape
// (types, known fields, market, signer rules) before the signature is checked, and the terms
// (tick, size, expiration) after, when the order id is known for the messages that name it.
// Every problem with the order is an IntakeError carrying the real service's message; so is a
// market that takes no orders (paused, closed or resolved), with the reason.

import {
  ADDRESS_HEX,
  BYTES32_HEX,
  formatUnits,
  impliedPrice,
  orderTerms,
  parseBaseUnits,
  type OrderTerms,
} from '@pmx/codec';
import { takesOrders } from '@pmx/events';
import { OrderType, Side, type TokenIndex } from '@pmx/matching';
import type { OrderWithSignature } from '@pmx/signing';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';
import { ordersRefused } from '../markets/market-lifecycle.ts';

export class IntakeError extends Error {
  override readonly name = 'IntakeError';
}

/** A Map, not an object: `'toString' in {…}` is true, and such a name must not pass as a type. */
export const ORDER_TYPES: ReadonlyMap<string, OrderType> = new Map([
  ['GTC', OrderType.GTC],
  ['GTD', OrderType.GTD],
  ['FOK', OrderType.FOK],
  ['FAK', OrderType.FAK],
]);
/**
 * The latest GTD expiration taken, in seconds: the end of year 9999. Later ones are refused as
 * invalid; they fit neither the ledger's timestamps (Postgres stops at year 294276, JS dates at
 * 275760) nor any market's life, and one let through would stop the ledger of its shard.
 */
export const MAX_EXPIRATION_SECONDS = 253_402_300_799;
const ENVELOPE_FIELDS = new Set(['order', 'owner', 'orderType', 'deferExec', 'postOnly']);
const ORDER_FIELDS = new Set([
  'salt',
  'maker',
  'signer',
  'taker',
  'tokenId',
  'makerAmount',
  'takerAmount',
  'side',
  'expiration',
  'nonce',
  'feeRateBps',
  'signatureType',
  'signature',
  'timestamp',
  'metadata',
  'builder',
  'conditionId',
]);
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const DIGITS = /^[0-9]{1,78}$/;
const ZERO32 = `0x${'0'.repeat(64)}`;

export interface ParsedOrder {
  signed: OrderWithSignature;
  market: MarketRecord;
  token: TokenIndex;
  side: Side;
  orderType: OrderType;
  postOnly: boolean;
  makerAmount: bigint;
  takerAmount: bigint;
  /** Unsigned GTD expiry in seconds ("0" for none). */
  expiration: number;
  owner: string;
  maker: string;
  signer: string;
  signatureType: number;
  /** The signed timestamp in ms, 0 when it is not a safe integer (for the replay window). */
  signedAt: number;
}

function payload(detail: string): IntakeError {
  return new IntakeError(`Invalid order payload: ${detail}`);
}

function text(value: unknown, field: string, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw payload(`${field} is missing or malformed`);
  return value;
}

function uint(value: unknown, field: string): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return text(value, field, DIGITS);
}

/** Step one: everything that can be checked without the signature. */
export function parseOrderEnvelope(body: unknown, markets: MarketRegistry): ParsedOrder {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw payload('the body must be a JSON object');
  const envelope = body as Record<string, unknown>;
  for (const key of Object.keys(envelope)) if (!ENVELOPE_FIELDS.has(key)) throw payload(`unknown field ${key}`);
  const order = envelope.order;
  if (typeof order !== 'object' || order === null || Array.isArray(order)) throw payload('order must be an object');
  const o = order as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!ORDER_FIELDS.has(key)) throw payload(`unknown field order.${key}`);

  const owner = typeof envelope.owner === 'string' && envelope.owner !== '' ? envelope.owner : undefined;
  if (owner === undefined) throw payload('owner is missing');
  const typeName = envelope.orderType ?? 'GTC';
  const orderType = typeof typeName === 'string' ? ORDER_TYPES.get(typeName) : undefined;
  if (orderType === undefined) throw payload('orderType must be GTC, GTD, FOK or FAK');
  for (const flag of ['postOnly', 'deferExec'] as const) {
    if (envelope[flag] !== undefined && typeof envelope[flag] !== 'boolean') throw payload(`${flag} must be a boolean`);
  }

  const tokenId = text(o.tokenId, 'tokenId', DIGITS);
  const listing = markets.byTokenId(tokenId);
  if (listing === undefined) throw new IntakeError(`market not found for token ${tokenId}`);
  if (
    o.conditionId !== undefined &&
    (typeof o.conditionId !== 'string' || o.conditionId.toLowerCase() !== listing.market.conditionId.toLowerCase())
  ) {
    throw payload('conditionId does not match tokenId');
  }
  // A string on the wire, as the contract has it (the digest signs it as 0 / 1).
  const side = o.side === 'BUY' ? Side.BUY : o.side === 'SELL' ? Side.SELL : undefined;
  if (side === undefined) throw payload('side must be BUY or SELL');
  // Fields of the first order version some clients still send: not signed in version 2 and not
  // used, but they must at least be what they claim to be.
  if (o.taker !== undefined) text(o.taker, 'taker', ADDRESS_HEX);
  if (o.nonce !== undefined) uint(o.nonce, 'nonce');
  if (o.feeRateBps !== undefined) uint(o.feeRateBps, 'feeRateBps');
  const signatureType = Number(uint(o.signatureType, 'signatureType'));
  if (signatureType > 3) throw payload('signatureType must be 0, 1, 2 or 3');
  if (signatureType === 3)
    throw new IntakeError(
      'signature type 3 (smart-contract wallets) is not supported: sign with an EOA (0) or a registered proxy (1, 2)',
    );
  const makerAmount = parseBaseUnits(uint(o.makerAmount, 'makerAmount'));
  const takerAmount = parseBaseUnits(uint(o.takerAmount, 'takerAmount'));
  if (makerAmount === null || takerAmount === null)
    throw payload('makerAmount and takerAmount must be positive integers');
  const expiration = o.expiration === undefined ? '0' : uint(o.expiration, 'expiration');
  if (expiration.length > 15 || Number(expiration) > MAX_EXPIRATION_SECONDS)
    throw new IntakeError('invalid expiration');

  const timestamp = uint(o.timestamp, 'timestamp');
  const signed: OrderWithSignature = {
    salt: uint(o.salt, 'salt'),
    maker: text(o.maker, 'maker', ADDRESS_HEX),
    signer: text(o.signer, 'signer', ADDRESS_HEX),
    tokenId,
    makerAmount: makerAmount.toString(),
    takerAmount: takerAmount.toString(),
    side,
    signatureType,
    timestamp,
    metadata: o.metadata === undefined ? ZERO32 : text(o.metadata, 'metadata', BYTES32_HEX),
    builder: o.builder === undefined ? ZERO32 : text(o.builder, 'builder', BYTES32_HEX),
    signature: text(o.signature, 'signature', SIGNATURE),
  };
  return {
    signed,
    market: listing.market,
    token: listing.token,
    side,
    orderType,
    postOnly: envelope.postOnly === true,
    makerAmount,
    takerAmount,
    expiration: Number(expiration),
    owner,
    maker: signed.maker.toLowerCase(),
    signer: signed.signer.toLowerCase(),
    signatureType,
    signedAt: timestamp.length <= 15 ? Number(timestamp) : 0,
  };
}

export interface AcceptedTerms extends OrderTerms {
  /** GTD expiry in ms (engine clock), 0 for other types. */
  expiresAt: number;
}

/** Step two, with the order id known: price on the tick, size, expiration, post-only rules. */
export function checkOrderTerms(order: ParsedOrder, orderId: string, nowMs: number): AcceptedTerms {
  const { market } = order;
  if (!market.active) throw new IntakeError('the market is not yet ready to process new orders');
  if (!takesOrders(market.state)) throw new IntakeError(ordersRefused(market.state));
  if (order.postOnly && order.orderType !== OrderType.GTC && order.orderType !== OrderType.GTD) {
    throw new IntakeError('invalid post-only order: only GTC and GTD order types are allowed');
  }
  const sideName = order.side === Side.BUY ? 'BUY' : 'SELL';
  const marketable = order.orderType === OrderType.FOK || order.orderType === OrderType.FAK;
  const result = orderTerms({
    side: sideName,
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    ticksPerUnit: market.ticksPerUnit,
    marketable,
  });
  const size = order.side === Side.BUY ? order.takerAmount : order.makerAmount;
  if (!result.ok) {
    const price = impliedPrice(sideName, order.makerAmount, order.takerAmount);
    switch (result.problem) {
      case 'price-off-tick':
      case 'price-out-of-range':
        throw new IntakeError(
          `order ${orderId} is invalid. Price (${price}) breaks minimum tick size rule: ${market.tickSize}`,
        );
      case 'size-not-whole-lots':
        throw new IntakeError(`order ${orderId} is invalid. Size (${formatUnits(size)}) must be a multiple of 0.01`);
      case 'size-zero':
      case 'size-too-large':
        throw new IntakeError(`order ${orderId} is invalid. Size (${formatUnits(size)}) is out of range`);
    }
  }
  const terms = result.terms;
  if (terms.size < market.minOrderSize) {
    throw new IntakeError(
      `order ${orderId} is invalid. Size (${formatUnits(terms.size)}) lower than the minimum: ${formatUnits(market.minOrderSize)}`,
    );
  }
  let expiresAt = 0;
  if (order.orderType === OrderType.GTD) {
    expiresAt = order.expiration * 1000;
    if (order.expiration === 0 || expiresAt <= nowMs) throw new IntakeError('invalid expiration');
  } else if (order.expiration !== 0) {
    // Honoured by GTD alone: a GTC with a time would rest for ever while its author expects it gone.
    throw new IntakeError('invalid expiration: only GTD orders expire (send "0" for GTC, FOK and FAK)');
  }
  return { ...terms, expiresAt };
}

/** The order's own token id, for its asset. */
export function assetOf(order: ParsedOrder): string {
  return order.market.tokens[order.token];
}

// EIP-712 digest of a V2 exchange order, the fast way: type hash and domain separator computed once
// per (chainId, verifyingContract), the struct encoded into one reusable buffer, two keccaks.
import { keccak256 } from './keccak.ts';
import { writeAddress, writeBytes32, writeUint256, writeUint8, type UintInput } from './abi-words.ts';
import { digestPrefix, domainSeparator, encodeType, typeHash, typedDataDigest } from './eip712-domain.ts';
import { toHex } from './hex-codec.ts';
import { SigningInputError } from './signing-input-error.ts';

/** The Order struct as EIP-712 tooling (viem, ethers) takes it: for clients, bots and tests that sign orders. */
export const ORDER_EIP712_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;

/** `Order(uint256 salt,address maker,…,bytes32 builder)`, derived from the list above. */
export const ORDER_TYPE = encodeType('Order', ORDER_EIP712_TYPES.Order);
export const ORDER_DOMAIN_NAME = 'Polymarket CTF Exchange';
export const ORDER_DOMAIN_VERSION = '2';

/** BUY = 0, SELL = 1; the wire's "BUY"/"SELL" strings are taken too. */
export type OrderSideInput = 0 | 1 | 'BUY' | 'SELL';

/**
 * The signed fields of an order, as they come in the POST /order body (`order` object). Other
 * fields there (`signature`, `expiration`, `taker`) are not signed and are ignored.
 */
export interface SignedOrderFields {
  salt: UintInput;
  maker: string;
  signer: string;
  tokenId: UintInput;
  makerAmount: UintInput;
  takerAmount: UintInput;
  side: OrderSideInput;
  signatureType: number | string;
  /** Milliseconds since the epoch. */
  timestamp: UintInput;
  metadata: string;
  builder: string;
}

export interface OrderDomain {
  chainId: number;
  /** The exchange (or neg-risk exchange) the order is for. */
  verifyingContract: string;
}

export interface OrderHasher {
  readonly domainSeparator: Uint8Array;
  /** The 32-byte EIP-712 digest; throws SigningInputError on a malformed field. */
  hashOrder(order: SignedOrderFields): Uint8Array;
}

const ORDER_TYPE_HASH = typeHash(ORDER_TYPE);
const separators = new Map<string, Uint8Array>();

function orderDomainSeparator({ chainId, verifyingContract }: OrderDomain): Uint8Array {
  const key = `${chainId}:${String(verifyingContract).toLowerCase()}`;
  let separator = separators.get(key);
  if (!separator) {
    separator = domainSeparator({ name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, chainId, verifyingContract });
    separators.set(key, separator);
  }
  return separator;
}

function sideValue(side: unknown): 0 | 1 {
  if (side === 0 || side === 'BUY' || side === '0') return 0;
  if (side === 1 || side === 'SELL' || side === '1') return 1;
  throw new SigningInputError('side', 'expected 0 (BUY) or 1 (SELL)');
}

/** A hasher for one exchange domain. Not re-entrant across threads (none in JS) — share freely. */
export function createOrderHasher(domain: OrderDomain): OrderHasher {
  if (!Number.isSafeInteger(domain.chainId) || domain.chainId <= 0)
    throw new SigningInputError('chainId', 'expected a positive integer');
  const separator = orderDomainSeparator(domain);
  const prefixed = digestPrefix(separator);
  const struct = new Uint8Array(32 * 12);
  const view = new DataView(struct.buffer);
  struct.set(ORDER_TYPE_HASH, 0);
  return {
    domainSeparator: separator,
    hashOrder(order) {
      if (order === null || typeof order !== 'object') throw new SigningInputError('order', 'expected an object');
      writeUint256(order.salt, struct, view, 32, 'salt');
      writeAddress(order.maker, struct, 64, 'maker');
      writeAddress(order.signer, struct, 96, 'signer');
      writeUint256(order.tokenId, struct, view, 128, 'tokenId');
      writeUint256(order.makerAmount, struct, view, 160, 'makerAmount');
      writeUint256(order.takerAmount, struct, view, 192, 'takerAmount');
      writeUint8(sideValue(order.side), struct, 224, 'side');
      writeUint8(order.signatureType, struct, 256, 'signatureType');
      writeUint256(order.timestamp, struct, view, 288, 'timestamp');
      writeBytes32(order.metadata, struct, 320, 'metadata');
      writeBytes32(order.builder, struct, 352, 'builder');
      return typedDataDigest(prefixed, keccak256(struct));
    },
  };
}

/** The order id the API shows: the digest as lowercase 0x-hex. */
export function orderId(digest: Uint8Array): string {
  return toHex(digest);
}

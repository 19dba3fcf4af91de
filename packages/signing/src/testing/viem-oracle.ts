// Test-only: the same typed data expressed for viem, which tests use as the reference
// implementation, plus random orders and keys to feed both.
import fc from 'fast-check';
import { hashTypedData, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { CLOB_AUTH_EIP712_TYPES } from '../clob-auth.ts';
import { ORDER_EIP712_TYPES, type SignedOrderFields } from '../order-digest.ts';

import { DEFAULT_CHAIN_ID, DEFAULT_EXCHANGE, DEFAULT_NEG_RISK_EXCHANGE } from '../exchanges.ts';

export const EXCHANGE = DEFAULT_EXCHANGE;
export const NEG_RISK_EXCHANGE = DEFAULT_NEG_RISK_EXCHANGE;
export const CHAIN_ID = DEFAULT_CHAIN_ID;

export const orderTypes = ORDER_EIP712_TYPES;
export const clobAuthTypes = CLOB_AUTH_EIP712_TYPES;

export function orderDomain(verifyingContract: string, chainId = CHAIN_ID) {
  return {
    name: 'Polymarket CTF Exchange',
    version: '2',
    chainId,
    verifyingContract: verifyingContract as Hex,
  } as const;
}

/** The viem message for an order whose fields are decimal strings / hex (addresses lowercased: viem rejects bad checksums). */
export function viemOrderMessage(order: SignedOrderFields) {
  return {
    salt: BigInt(order.salt),
    maker: order.maker.toLowerCase() as Hex,
    signer: order.signer.toLowerCase() as Hex,
    tokenId: BigInt(order.tokenId),
    makerAmount: BigInt(order.makerAmount),
    takerAmount: BigInt(order.takerAmount),
    side: order.side === 'BUY' ? 0 : order.side === 'SELL' ? 1 : Number(order.side),
    signatureType: Number(order.signatureType),
    timestamp: BigInt(order.timestamp),
    metadata: order.metadata as Hex,
    builder: order.builder as Hex,
  };
}

export function viemOrderHash(order: SignedOrderFields, verifyingContract = EXCHANGE): Hex {
  return hashTypedData({
    domain: orderDomain(verifyingContract),
    types: orderTypes,
    primaryType: 'Order',
    message: viemOrderMessage(order),
  });
}

export function signOrderWithViem(
  account: PrivateKeyAccount,
  order: SignedOrderFields,
  verifyingContract = EXCHANGE,
): Promise<Hex> {
  return account.signTypedData({
    domain: orderDomain(verifyingContract),
    types: orderTypes,
    primaryType: 'Order',
    message: viemOrderMessage(order),
  });
}

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
const hexOf = (chars: number) =>
  fc.array(hexDigit, { minLength: chars, maxLength: chars }).map((d) => '0x' + d.join(''));
const uintString = (maxBits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(maxBits)) - 1n }).map(String);

/** Orders with every field random in its full range (token ids up to 2^256-1, mixed-case addresses). */
export const arbitraryOrder: fc.Arbitrary<SignedOrderFields> = fc.record({
  salt: fc.oneof(uintString(256), uintString(40)),
  maker: hexOf(40),
  signer: hexOf(40),
  tokenId: uintString(256),
  makerAmount: fc.oneof(uintString(48), uintString(256)),
  takerAmount: fc.oneof(uintString(48), uintString(256)),
  side: fc.constantFrom(0 as const, 1 as const),
  signatureType: fc.integer({ min: 0, max: 255 }),
  timestamp: fc.integer({ min: 0, max: 2 ** 45 }).map(String),
  metadata: hexOf(64),
  builder: hexOf(64),
});

/** A deterministic account for seed i (keys 1…n are valid secp256k1 scalars). */
export function testAccount(i: number): PrivateKeyAccount {
  return privateKeyToAccount(`0x${(BigInt(i) * 0x9e3779b97f4a7c15n + 1n).toString(16).padStart(64, '0')}` as Hex);
}

/** A realistic order for `account`, varied by `i`. */
export function sampleOrder(account: PrivateKeyAccount, i = 0): SignedOrderFields {
  return {
    salt: String(1_000_003 * (i + 1)),
    maker: account.address,
    signer: account.address,
    tokenId: (
      71321045679252212594626385532706912750332728571942532289631379312455583992563n + BigInt(i % 2)
    ).toString(),
    makerAmount: String(50_000_000 + i),
    takerAmount: '100000000',
    side: (i % 2) as 0 | 1,
    signatureType: 0,
    timestamp: String(1_760_000_000_000 + i),
    metadata: '0x' + '00'.repeat(32),
    builder: '0x' + '00'.repeat(32),
  };
}

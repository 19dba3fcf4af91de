import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrderHasher, ORDER_TYPE, orderId, type SignedOrderFields } from './order-digest.ts';
import { SigningInputError } from './signing-input-error.ts';
import {
  arbitraryOrder,
  CHAIN_ID,
  EXCHANGE,
  NEG_RISK_EXCHANGE,
  sampleOrder,
  testAccount,
  viemOrderHash,
} from './testing/viem-oracle.ts';

const hasher = createOrderHasher({ chainId: CHAIN_ID, verifyingContract: EXCHANGE });
const negRiskHasher = createOrderHasher({ chainId: CHAIN_ID, verifyingContract: NEG_RISK_EXCHANGE });

function fieldOfError(order: unknown): string | undefined {
  try {
    hasher.hashOrder(order as SignedOrderFields);
  } catch (error) {
    if (error instanceof SigningInputError) return error.field;
    throw error;
  }
  return undefined;
}

describe('order digest', () => {
  it('hashes the V2 Order type string exactly', () => {
    expect(ORDER_TYPE).toBe(
      'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)',
    );
  });

  it('equals viem hashTypedData for random orders over the full field ranges', () => {
    fc.assert(
      fc.property(arbitraryOrder, (order) => {
        expect(orderId(hasher.hashOrder(order))).toBe(viemOrderHash(order, EXCHANGE));
        expect(orderId(negRiskHasher.hashOrder(order))).toBe(viemOrderHash(order, NEG_RISK_EXCHANGE));
      }),
      { numRuns: 400 },
    );
  });

  it('gives different ids on the exchange and the neg-risk exchange', () => {
    const order = sampleOrder(testAccount(1));
    expect(orderId(hasher.hashOrder(order))).not.toBe(orderId(negRiskHasher.hashOrder(order)));
  });

  it('takes the wire forms: salt as a JSON number, side as BUY/SELL, signatureType as a string', () => {
    const order = sampleOrder(testAccount(2), 1);
    const wire = { ...order, salt: Number(order.salt), side: 'SELL' as const, signatureType: '0' };
    expect(orderId(hasher.hashOrder(wire))).toBe(viemOrderHash(order));
  });

  it('ignores unsigned body fields such as signature, expiration and taker', () => {
    const order = sampleOrder(testAccount(3));
    const body = {
      ...order,
      signature: '0xdead',
      expiration: '1760000000',
      taker: '0x0000000000000000000000000000000000000000',
    };
    expect(orderId(hasher.hashOrder(body))).toBe(viemOrderHash(order));
  });

  it('treats addresses case-insensitively', () => {
    const order = sampleOrder(testAccount(4));
    const lower = {
      ...order,
      maker: order.maker.toLowerCase(),
      signer: order.signer.toUpperCase().replace('0X', '0x'),
    };
    expect(orderId(hasher.hashOrder(lower))).toBe(orderId(hasher.hashOrder(order)));
  });

  it('returns a fresh digest per call, so earlier results are not overwritten', () => {
    const first = hasher.hashOrder(sampleOrder(testAccount(5), 0));
    const copy = orderId(first);
    hasher.hashOrder(sampleOrder(testAccount(5), 1));
    expect(orderId(first)).toBe(copy);
  });

  it('rejects malformed fields with a SigningInputError naming the field', () => {
    const good = sampleOrder(testAccount(6));
    const cases: Array<[Partial<Record<keyof SignedOrderFields, unknown>>, string]> = [
      [{ tokenId: (1n << 256n).toString() }, 'tokenId'],
      [{ tokenId: '1'.repeat(79) }, 'tokenId'],
      [{ makerAmount: '-5' }, 'makerAmount'],
      [{ takerAmount: '1.5' }, 'takerAmount'],
      [{ takerAmount: '' }, 'takerAmount'],
      [{ salt: 2 ** 53 }, 'salt'],
      [{ salt: -1 }, 'salt'],
      [{ salt: null }, 'salt'],
      [{ timestamp: '0x10' }, 'timestamp'],
      [{ maker: '0x1234' }, 'maker'],
      [{ signer: 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266ab' }, 'signer'],
      [{ maker: '0x' + 'g'.repeat(40) }, 'maker'],
      [{ metadata: '0x' + '00'.repeat(31) }, 'metadata'],
      [{ builder: 42 }, 'builder'],
      [{ side: 2 }, 'side'],
      [{ side: 'buy' }, 'side'],
      [{ signatureType: 256 }, 'signatureType'],
      [{ signatureType: 1.5 }, 'signatureType'],
    ];
    for (const [patch, field] of cases) expect(fieldOfError({ ...good, ...patch }), JSON.stringify(patch)).toBe(field);
    expect(fieldOfError(null)).toBe('order');
  });

  it('accepts the largest uint256 and recovers after a rejected order', () => {
    const max = { ...sampleOrder(testAccount(7)), tokenId: ((1n << 256n) - 1n).toString() };
    expect(orderId(hasher.hashOrder(max))).toBe(viemOrderHash(max));
    expect(fieldOfError({ ...max, builder: '0x12' })).toBe('builder');
    const next = sampleOrder(testAccount(7), 3);
    expect(orderId(hasher.hashOrder(next))).toBe(viemOrderHash(next));
  });

  it('refuses a domain with a malformed verifying contract or chain id', () => {
    expect(() => createOrderHasher({ chainId: CHAIN_ID, verifyingContract: '0x12' })).toThrow(SigningInputError);
    expect(() => createOrderHasher({ chainId: 0, verifyingContract: EXCHANGE })).toThrow(SigningInputError);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { verifyOrders, type VerifyBatch } from './order-verification.ts';
import {
  CHAIN_ID,
  EXCHANGE,
  NEG_RISK_EXCHANGE,
  sampleOrder,
  signOrderWithViem,
  testAccount,
  viemOrderHash,
} from './testing/viem-oracle.ts';
import { createVerifyPool } from './verify-pool.ts';

async function signedBatch(count: number, from = 0): Promise<VerifyBatch> {
  const items: VerifyBatch['items'] = [];
  for (let i = from; i < from + count; i++) {
    const account = testAccount(i + 1);
    const order = sampleOrder(account, i);
    const verifyingContract = i % 3 === 0 ? NEG_RISK_EXCHANGE : EXCHANGE;
    items.push({
      verifyingContract,
      order: { ...order, signature: await signOrderWithViem(account, order, verifyingContract) },
    });
  }
  return { chainId: CHAIN_ID, items };
}

describe('verify pool', () => {
  const pool = createVerifyPool({ threads: 2 });
  afterAll(() => pool.destroy());

  it('returns each order id and recovered signer, in order, across concurrent batches', async () => {
    const batches = await Promise.all([signedBatch(12, 0), signedBatch(12, 12), signedBatch(12, 24)]);
    const results = await Promise.all(batches.map((batch) => pool.verify(batch)));
    results.forEach((batchResults, b) => {
      expect(batchResults).toHaveLength(12);
      batchResults.forEach((result, i) => {
        const { order, verifyingContract } = batches[b]!.items[i]!;
        expect(result).toEqual({
          orderId: viemOrderHash(order, verifyingContract),
          signer: order.signer.toLowerCase(),
        });
      });
    });
    expect(pool.threads).toBe(2);
  });

  it('loads the native recovery backend in its workers', async () => {
    expect(await pool.workerBackend()).toBe('native-secp256k1');
  });

  it('reports a malformed order without failing the rest of its batch', async () => {
    const batch = await signedBatch(3, 40);
    batch.items[1] = { ...batch.items[1]!, order: { ...batch.items[1]!.order, signature: '0x00' } };
    const results = await pool.verify(batch);
    expect(results[0]).toHaveProperty('signer', batch.items[0]!.order.signer.toLowerCase());
    expect(results[1]).toMatchObject({ field: 'signature' });
    expect(results[2]).toHaveProperty('signer', batch.items[2]!.order.signer.toLowerCase());
  });

  it('agrees with the same verification run in the calling thread', async () => {
    const batch = await signedBatch(8, 50);
    expect(await pool.verify(batch)).toEqual(verifyOrders(batch));
  });
});

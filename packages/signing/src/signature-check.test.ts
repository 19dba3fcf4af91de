import { afterAll, describe, expect, it } from 'vitest';
import { SignatureCheck } from './signature-check.ts';
import {
  CHAIN_ID,
  EXCHANGE,
  sampleOrder,
  signOrderWithViem,
  testAccount,
  viemOrderHash,
} from './testing/viem-oracle.ts';
import { createVerifyPool, type VerifyPool } from './verify-pool.ts';
import type { OrderWithSignature } from './order-verification.ts';

async function signed(count: number, from: number): Promise<OrderWithSignature[]> {
  const orders: OrderWithSignature[] = [];
  for (let i = from; i < from + count; i++) {
    const account = testAccount(i + 1);
    const order = sampleOrder(account, i);
    orders.push({ ...order, signature: await signOrderWithViem(account, order, EXCHANGE) });
  }
  return orders;
}

describe('SignatureCheck: batches orders for the verify pool', () => {
  const real = createVerifyPool({ threads: 1 });
  const batches: number[] = [];
  // The real pool, only counted: each batch it is handed and how many orders it holds.
  const pool: VerifyPool = {
    ...real,
    threads: real.threads,
    get queued() {
      return real.queued;
    },
    verify: (batch) => {
      batches.push(batch.items.length);
      return real.verify(batch);
    },
  };
  afterAll(() => real.destroy());

  it('sends the orders of one turn as one batch, and those arriving while it is out as the next', async () => {
    batches.length = 0;
    const check = new SignatureCheck(pool, CHAIN_ID);
    const [first, second] = [await signed(5, 0), await signed(7, 5)];
    const answers = first.map((order) => check.verify(order, EXCHANGE));
    // The first batch leaves on the next turn; these arrive while it is out (the one thread busy).
    await new Promise((resolve) => setImmediate(resolve));
    answers.push(...second.map((order) => check.verify(order, EXCHANGE)));
    const results = await Promise.all(answers);
    expect(batches).toEqual([5, 7]);
    results.forEach((result, i) => {
      const order = [...first, ...second][i]!;
      expect(result).toEqual({ orderId: viemOrderHash(order, EXCHANGE), signer: order.signer.toLowerCase() });
    });
  });

  it('rejects every order of a batch the pool fails, and goes on with the next', async () => {
    let calls = 0;
    const check = new SignatureCheck(
      { ...pool, verify: (batch) => (calls++ === 0 ? Promise.reject(new Error('pool down')) : real.verify(batch)) },
      CHAIN_ID,
    );
    const [orders, later] = [await signed(3, 20), await signed(2, 23)];
    const failed = await Promise.allSettled(orders.map((order) => check.verify(order, EXCHANGE)));
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toEqual(new Error('pool down'));
    const next = await Promise.all(later.map((order) => check.verify(order, EXCHANGE)));
    expect(next.map((r) => ('signer' in r ? r.signer : r))).toEqual(later.map((o) => o.signer.toLowerCase()));
  });
});

// Digest + signer recovery for a batch of orders: what a verify-pool worker runs, and what a caller
// without a pool can run in its own thread.
import { createOrderHasher, orderId, type OrderHasher, type SignedOrderFields } from './order-digest.ts';
import { recoverAddress } from './signer-recovery.ts';
import { SigningInputError } from './signing-input-error.ts';

/** An order as in the POST /order body: the signed fields plus its signature. */
export type OrderWithSignature = SignedOrderFields & { signature: string };

export interface VerifyBatch {
  chainId: number;
  items: Array<{ verifyingContract: string; order: OrderWithSignature }>;
}

/**
 * Per item, in order: its id and the recovered signer (lowercase; null when the signature recovers
 * no key — compare it with `order.signer` and the API key's address), or why its input is malformed.
 */
export type VerifyResult = { orderId: string; signer: string | null } | { error: string; field: string };

const hashers = new Map<string, OrderHasher>();

function hasherFor(chainId: number, verifyingContract: string): OrderHasher {
  const key = `${chainId}:${verifyingContract}`;
  let hasher = hashers.get(key);
  if (!hasher) {
    hasher = createOrderHasher({ chainId, verifyingContract });
    hashers.set(key, hasher);
  }
  return hasher;
}

export function verifyOrders(batch: VerifyBatch): VerifyResult[] {
  const results: VerifyResult[] = new Array(batch.items.length);
  for (let i = 0; i < batch.items.length; i++) {
    const { verifyingContract, order } = batch.items[i]!;
    try {
      const digest = hasherFor(batch.chainId, verifyingContract).hashOrder(order);
      results[i] = { orderId: orderId(digest), signer: recoverAddress(digest, order.signature) };
    } catch (error) {
      if (!(error instanceof SigningInputError)) throw error;
      results[i] = { error: error.message, field: error.field };
    }
  }
  return results;
}

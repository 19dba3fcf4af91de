// Order step 4 of 6 (verify → admit → reserve → match → queue → reply): the order goes to its
// market's shard, which matches it and (step 5, shards/shard-worker.ts) appends the events to the
// shard's queue before it answers; the answer becomes the reply. A refusal undoes the reservation.

import { ShardStalled, type ShardSet } from '../../shards/shard-set.ts';
import { REJECT_CODES, ResultCode, type Refusal } from '../../link/result-codes.ts';
import type { PlaceAnswer, VerifiedOrder } from '../../link/core-protocol.ts';
import { undo, type ReserveDeps } from './reserve.ts';
import { refusalOf } from './refusals.ts';

export interface MatchDeps extends ReserveDeps {
  shards: ShardSet;
}

export async function match(order: VerifiedOrder, deps: MatchDeps): Promise<PlaceAnswer | Refusal> {
  let result;
  try {
    // The shard's place is the verified order with its maker as owner and its key as ownerKey.
    const { apiKey, maker, signer: _signer, signatureType: _type, assetId: _asset, ...terms } = order;
    result = await deps.shards.submit(deps.shards.shardOf(order.market), {
      type: 'place',
      ...terms,
      owner: maker,
      ownerKey: apiKey,
    });
  } catch (error) {
    // Refused before its shard saw it (stalled): the same signed order may come again. Otherwise
    // (stopping, halted) its outcome is unknown and its id stays used.
    undo(order, deps, error instanceof ShardStalled);
    return refusalOf(error, 'matching an order');
  }
  if (result.type === 'place' && result.ok) {
    return {
      code: ResultCode.OK,
      status: result.status,
      filled: result.filled,
      notional: result.notional,
      tradeIds: result.tradeIds,
    };
  }
  if (result.type === 'place') {
    // Refused by the engine, the order was never accepted (nor recorded in the ledger): the same
    // signed order may come again. A shard's own duplicate refusal keeps it used.
    undo(order, deps, result.reason !== 'duplicate');
    return { code: REJECT_CODES[result.reason] };
  }
  // A command that failed before the engine acted on it never reached the ledger either (one that
  // failed part-way halts trading: ShardSet).
  undo(order, deps, result.type === 'error' && result.partial !== true);
  return refusalOf(
    new Error(result.type === 'error' ? result.message : `unexpected shard result ${result.type}`),
    'matching an order',
  );
}

// An order's way through the core, step by step (the gateway did step 1, verify, and does step 6,
// the reply's wording): admit → reserve → match, the queue append inside the shard's match.

import type { PlaceAnswer, VerifiedOrder } from '../link/core-protocol.ts';
import type { Refusal } from '../link/result-codes.ts';
import type { OrderLatency } from '../orders/order-latency.ts';
import { admit, type AdmitDeps } from './order-steps/admit.ts';
import { match, type MatchDeps } from './order-steps/match.ts';
import { reserve } from './order-steps/reserve.ts';

export type PlaceDeps = AdmitDeps & MatchDeps & { latency: OrderLatency };

export async function placeOrder(order: VerifiedOrder, deps: PlaceDeps): Promise<PlaceAnswer | Refusal> {
  const admitted = admit(order, deps);
  const refused = admitted instanceof Promise ? await admitted : admitted;
  if (refused !== undefined) return refused;
  const short = reserve(order, deps);
  if (short !== undefined) return short;
  const submitted = performance.now();
  const answer = await match(order, deps);
  deps.latency.recordMatch(performance.now() - submitted);
  return answer;
}

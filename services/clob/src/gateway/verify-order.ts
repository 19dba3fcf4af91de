// Order step 1 of 6 (verify → admit → reserve → match → queue → reply), in the gateway: the
// parsed order's EIP-712 signature is recovered in the verify pool, its signer and owner must be
// the API key's, its maker the signer or a proxy of it, and its terms (tick, size, expiration) and
// timestamp sound. What leaves here is a VerifiedOrder the core can trust.

import { Side } from '@pmx/matching';
import type { ApiKeyRecord } from '@pmx/auth';
import type { SignatureCheck } from '@pmx/signing';
import type { ProxyWallets } from '../markets/proxy-wallets.ts';
import { IntakeError, assetOf, checkOrderTerms, type ParsedOrder } from '../orders/order-intake.ts';
import type { OrderLatency } from '../orders/order-latency.ts';
import type { VerifiedOrder } from '../link/core-protocol.ts';

/** How far ahead of the server clock an order's own timestamp may be (or the replay window, if longer). */
const MAX_CLOCK_AHEAD_MS = 10 * 60_000;

export interface VerifyDeps {
  signatures: SignatureCheck;
  proxies: () => ProxyWallets;
  exchangeAddress: string;
  negRiskExchangeAddress: string;
  replayWindowMs: number;
  latency: OrderLatency;
  now?: () => number;
}

function assertMakerControl(order: ParsedOrder, proxies: ProxyWallets): void {
  if (
    order.signatureType === 0
      ? order.maker !== order.signer
      : !proxies.controls(order.signer, order.maker, order.signatureType)
  ) {
    throw new IntakeError(
      order.signatureType === 0
        ? 'the order maker has to be the signer for signature type 0'
        : `the order maker ${order.maker} is not a registered proxy wallet of the signer`,
    );
  }
}

export async function verifyOrder(order: ParsedOrder, key: ApiKeyRecord, deps: VerifyDeps): Promise<VerifiedOrder> {
  const contract = order.market.negRisk ? deps.negRiskExchangeAddress : deps.exchangeAddress;
  const started = performance.now();
  const verified = await deps.signatures.verify(order.signed, contract);
  deps.latency.recordSignatureCheck(performance.now() - started);
  if ('error' in verified) throw new IntakeError(`Invalid order payload: ${verified.field} ${verified.error}`);
  const orderId = verified.orderId;
  if (verified.signer === null || verified.signer !== order.signer)
    throw new IntakeError(`order ${orderId} is invalid. The signature does not match the signer`);
  if (order.owner !== key.apiKey) throw new IntakeError('the order owner has to be the owner of the API KEY');
  if (order.signer !== key.address)
    throw new IntakeError('the order signer address has to be the address of the API KEY');
  assertMakerControl(order, deps.proxies());
  const now = (deps.now ?? Date.now)();
  const terms = checkOrderTerms(order, orderId, now);
  // Clients stamp the time they sign. One far ahead would keep its id in the core's memory until
  // then (an unbounded set, reloaded at each restart). The level-2 headers do not bound the
  // client's clock: the official client's useServerTime stamps them, but not its orders, with our time.
  const unsafe = order.signedAt === 0 && order.signed.timestamp !== '0';
  const ahead = Math.max(deps.replayWindowMs, MAX_CLOCK_AHEAD_MS);
  if (unsafe || order.signedAt > now + ahead) {
    throw new IntakeError(
      `order ${orderId} is invalid. Its timestamp (${order.signed.timestamp}) is more than ${ahead / 1000} s ahead of the server clock`,
    );
  }
  return {
    orderId,
    apiKey: key.apiKey,
    maker: order.maker,
    signer: order.signer,
    signatureType: order.signatureType,
    market: order.market.conditionId,
    token: order.token,
    assetId: assetOf(order),
    side: order.side === Side.BUY ? Side.BUY : Side.SELL,
    orderType: order.orderType,
    price: terms.price,
    size: terms.size,
    postOnly: order.postOnly,
    expiresAt: terms.expiresAt,
    signedAt: order.signedAt,
    builder: String(order.signed.builder),
  };
}

// The gateway's side of trading writes and order reads: it verifies an order (step 1), hands it
// to the core over the link, and words the core's answer (step 6). Cancels and order reads go
// to the core, which alone knows which orders are open.

import { formatUnits } from '@pmx/codec';
import { HttpError } from '@pmx/http';
import { Side } from '@pmx/matching';
import type { ApiKeyRecord } from '@pmx/auth';
import { transactionHash } from '@pmx/events';
import type { Balance } from '@pmx/risk';
import type { CoreLink, CoreReply, CustodyAnswer } from '../link/core-protocol.ts';
import type { CustodyOp } from '@pmx/events';
import type { MarketRecord } from '../markets/market-registry.ts';
import type { CustodyMoved } from '../routes/custody.ts';
import { ResultCode, type Refusal } from '../link/result-codes.ts';
import type { ParsedOrder } from '../orders/order-intake.ts';
import type { ClosedStatus, OpenOrder } from '../orders/open-orders.ts';
import type { CoreView } from './core-view.ts';
import { httpErrorOf, notCanceledReason } from './reply-wording.ts';
import { verifyOrder, type VerifyDeps } from './verify-order.ts';

export interface PlaceOrderResult {
  success: true;
  errorMsg: '';
  orderID: string;
  takingAmount: string;
  makingAmount: string;
  status: string;
  tradeIDs: string[];
  transactionsHashes: string[];
}

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

function refused(reply: CoreReply): reply is Refusal {
  return reply.code !== ResultCode.OK;
}

/** The reply's fields, or the refusal as its HTTP error. */
function answered<T extends CoreReply>(reply: CoreReply, orderId = ''): T {
  if (refused(reply)) throw httpErrorOf(reply, orderId);
  return reply as T;
}

export class GatewayOrders {
  constructor(
    private readonly link: CoreLink,
    private readonly view: CoreView,
    private readonly verify: VerifyDeps,
  ) {}

  /** Places one parsed order for an API key; an IntakeError is the caller's 400. */
  async place(order: ParsedOrder, key: ApiKeyRecord): Promise<PlaceOrderResult> {
    // A market that cannot trade is refused before the signature costs anything.
    this.view.assertReady(order.market.conditionId);
    const started = performance.now();
    const verified = await verifyOrder(order, key, this.verify);
    const outcome = await this.link.execute({ type: 'place', order: verified });
    this.verify.latency.recordTotal(performance.now() - started);
    const reply = answered<Extract<CoreReply, { status: unknown }>>(outcome, verified.orderId);
    const tokens = formatUnits(reply.filled);
    const collateral = formatUnits(reply.notional);
    return {
      success: true,
      errorMsg: '',
      orderID: verified.orderId,
      makingAmount: order.side === Side.BUY ? collateral : tokens,
      takingAmount: order.side === Side.BUY ? tokens : collateral,
      status: reply.status,
      tradeIDs: reply.tradeIds,
      transactionsHashes: reply.tradeIds.map(transactionHash),
    };
  }

  async cancel(key: Pick<ApiKeyRecord, 'apiKey'>, orderIds: readonly string[]): Promise<CancelResult> {
    return this.cancelResult(await this.link.execute({ type: 'cancel', apiKey: key.apiKey, orderIds: [...orderIds] }));
  }

  async cancelAll(
    key: Pick<ApiKeyRecord, 'apiKey'>,
    filter: { market?: string; assetId?: string } = {},
  ): Promise<CancelResult> {
    return this.cancelResult(await this.link.execute({ type: 'cancelAll', apiKey: key.apiKey, ...filter }));
  }

  private cancelResult(reply: CoreReply): CancelResult {
    const answer = answered<Extract<CoreReply, { canceled: unknown }>>(reply);
    const notCanceled = Object.create(null) as Record<string, string>;
    for (const [id, why] of Object.entries(answer.notCanceled)) notCanceled[id] = notCanceledReason(why);
    return { canceled: answer.canceled, not_canceled: notCanceled };
  }

  async openOrders(apiKey: string): Promise<OpenOrder[]> {
    return answered<Extract<CoreReply, { orders: unknown }>>(await this.link.execute({ type: 'openOrders', apiKey }))
      .orders;
  }

  /** The key's order if open or recently closed in the core; null otherwise (the ledger may know it). */
  async order(apiKey: string, orderId: string): Promise<(OpenOrder & { status: 'LIVE' | ClosedStatus }) | null> {
    return answered<Extract<CoreReply, { order: unknown }>>(await this.link.execute({ type: 'order', apiKey, orderId }))
      .order;
  }

  async balance(address: string, asset: string): Promise<Balance> {
    return answered<Extract<CoreReply, { balance: unknown }>>(
      await this.link.execute({ type: 'balance', address, asset }),
    ).balance;
  }

  /** A heartbeat as the route answers it. */
  async beat(
    apiKey: string,
    heartbeatId: string,
  ): Promise<{ ok: true; heartbeatId: string } | { ok: false; error: string; unavailable?: true }> {
    const reply = await this.link.execute({ type: 'heartbeat', apiKey, heartbeatId });
    if (!refused(reply)) return { ok: true, heartbeatId: (reply as { heartbeatId: string }).heartbeatId };
    const error = httpErrorOf(reply);
    return error.status === 400
      ? { ok: false, error: error.message }
      : { ok: false, error: error.message, unavailable: true };
  }

  /** A key about to be deleted: its orders closed first (503 when any is left: the key stays). */
  async closeKey(apiKey: string): Promise<void> {
    const { left } = answered<Extract<CoreReply, { left: unknown }>>(
      await this.link.execute({ type: 'closeKey', apiKey }),
    );
    if (left > 0)
      throw new HttpError(
        503,
        `${left} of the API key's open orders could not be cancelled (see DELETE /cancel-all); the key was not deleted and still works: retry shortly`,
      );
  }

  /** A split, merge or redeem, carried out by the core. */
  async custody(op: CustodyOp, address: string, market: MarketRecord, amount: number): Promise<CustodyMoved> {
    const { collateral, tokens, balances } = answered<CustodyAnswer>(
      await this.link.execute({ type: 'custody', op, address, market: market.conditionId, amount }),
    );
    return { collateral, tokens, balances };
  }

  async reopenKey(apiKey: string): Promise<void> {
    await this.link.execute({ type: 'reopenKey', apiKey });
  }

  async keyDeleted(apiKey: string): Promise<void> {
    await this.link.execute({ type: 'keyDeleted', apiKey });
  }
}

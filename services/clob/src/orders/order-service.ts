// The order flow (docs/design/overview.md, docs/design/money.md): check the signature and the
// signer rules, reserve what the order could spend, send it to its market's shard, and answer once
// the shard's events are queued and applied. Cancels check ownership against the open orders.

import { formatUnits } from '@pmx/codec';
import { HttpError } from '@pmx/http';
import { Side } from '@pmx/matching';
import type { ApiKeyRecord } from '@pmx/auth';
import type { ProxyWallets } from '../markets/proxy-wallets.ts';
import { transactionHash, type ShardRefusal } from '@pmx/events';
import { ordersRefused } from '../markets/market-lifecycle.ts';
import { ShardStalled, type ShardSet } from '../shards/shard-set.ts';
import { COLLATERAL, type TradingCore } from '../trading-core.ts';
import { IntakeError, assetOf, checkOrderTerms, type ParsedOrder } from './order-intake.ts';
import type { KnownOrders } from './known-orders.ts';
import { OrderLatency } from './order-latency.ts';
import type { SignatureCheck } from '@pmx/signing';
import { logger } from '@pmx/config';

/** How far ahead of the server clock an order's own timestamp may be (or the replay window, if longer). */
const MAX_CLOCK_AHEAD_MS = 10 * 60_000;

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

/** The real service's wording for the engine's rejections. */
const REJECTIONS: Record<ShardRefusal, (id: string) => string> = {
  // Paused or closed between the front end's check and the shard (which decides in sequence).
  'market-paused': () => ordersRefused('paused'),
  'market-closed': () => ordersRefused('closed'),
  'fok-not-filled': () => "order couldn't be fully filled. FOK orders are fully filled or killed.",
  'fak-no-match': () =>
    'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
  'post-only-crosses': () => 'invalid post-only order: order crosses book',
  'post-only-type': () => 'invalid post-only order: only GTC and GTD order types are allowed',
  duplicate: (id) => `order ${id} is invalid. Duplicated.`,
  'invalid-expiration': () => 'invalid expiration',
  'unknown-market': () => 'the market is not yet ready to process new orders',
  'invalid-price': (id) => `order ${id} is invalid. Price breaks minimum tick size rule`,
  'invalid-size': (id) => `order ${id} is invalid. Size must be a multiple of 0.01`,
  'size-below-minimum': (id) => `order ${id} is invalid. Size lower than the minimum`,
  'invalid-order-type': () => 'Invalid order payload: orderType must be GTC, GTD, FOK or FAK',
  'invalid-side': () => 'Invalid order payload: side must be BUY or SELL',
  'invalid-token': () => 'Invalid order payload: unknown token',
};

export interface OrderServiceOptions {
  exchangeAddress: string;
  negRiskExchangeAddress: string;
  now?: () => number;
  /** True for an API key deleted since the request's auth: its order is refused (401). */
  keyDeleted?: (apiKey: string) => boolean;
}

export class OrderService {
  private readonly now: () => number;
  /** Where placed orders spend their time in here (`GET /operator/order-latency`). */
  readonly latency: OrderLatency;

  constructor(
    private readonly core: TradingCore,
    private readonly shards: ShardSet,
    private readonly signatures: SignatureCheck,
    private readonly proxies: ProxyWallets,
    /** Every order id ever accepted for matching: a replayed signed order is a duplicate. */
    private readonly known: KnownOrders,
    private readonly options: OrderServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.latency = new OrderLatency(this.now);
  }

  /** Places one parsed order for an API key; an IntakeError is the caller's 400. */
  async place(order: ParsedOrder, key: ApiKeyRecord): Promise<PlaceOrderResult> {
    this.core.assertReady(order.market.conditionId);
    const contract = order.market.negRisk ? this.options.negRiskExchangeAddress : this.options.exchangeAddress;
    const started = performance.now();
    const verified = await this.signatures.verify(order.signed, contract);
    this.latency.recordSignatureCheck(performance.now() - started);
    if ('error' in verified) throw new IntakeError(`Invalid order payload: ${verified.field} ${verified.error}`);
    const orderId = verified.orderId;
    if (verified.signer === null || verified.signer !== order.signer)
      throw new IntakeError(`order ${orderId} is invalid. The signature does not match the signer`);
    if (order.owner !== key.apiKey) throw new IntakeError('the order owner has to be the owner of the API KEY');
    if (order.signer !== key.address)
      throw new IntakeError('the order signer address has to be the address of the API KEY');
    this.assertMakerControl(order);
    const now = this.now();
    const terms = checkOrderTerms(order, orderId, now);
    // Clients stamp the time they sign. One far ahead would keep its id in memory until then (an
    // unbounded set, reloaded at each restart). The level-2 headers do not bound the client's
    // clock: the official client's useServerTime stamps them, but not its orders, with our time.
    const unsafe = order.signedAt === 0 && order.signed.timestamp !== '0';
    const ahead = Math.max(this.known.windowMs, MAX_CLOCK_AHEAD_MS);
    if (unsafe || order.signedAt > now + ahead) {
      throw new IntakeError(
        `order ${orderId} is invalid. Its timestamp (${order.signed.timestamp}) is more than ${ahead / 1000} s ahead of the server clock`,
      );
    }
    const seen = this.known.has(orderId, order.signedAt);
    if (seen === true || (seen !== false && (await seen))) throw new IntakeError(REJECTIONS.duplicate(orderId));
    // Trading may have halted, or the key been deleted (which cancels its orders), while this
    // order waited for its signature or the ledger.
    this.core.assertReady(order.market.conditionId);
    if (this.options.keyDeleted?.(key.apiKey) === true) throw new HttpError(401, 'Unauthorized/Invalid api key');
    this.assertMakerControl(order); // a proxy moved to another signer meanwhile (its orders are being closed)

    const asset = order.side === Side.BUY ? COLLATERAL : assetOf(order);
    const reserved = this.core.risk.reserveOrder(orderId, order.maker, asset, {
      side: order.side,
      price: terms.price,
      size: terms.size,
      ticksPerUnit: order.market.ticksPerUnit,
    });
    if (reserved === 'duplicate') throw new IntakeError(REJECTIONS.duplicate(orderId));
    if (reserved === 'insufficient') throw new IntakeError('not enough balance / allowance');
    this.known.add(orderId, order.signedAt);
    this.core.openOrders.expect(orderId, {
      owner: key.apiKey,
      maker: order.maker,
      market: order.market.conditionId,
      assetId: assetOf(order),
    });

    let result;
    const submitted = performance.now();
    try {
      result = await this.shards.submit(this.shards.shardOf(order.market.conditionId), {
        type: 'place',
        orderId,
        owner: order.maker,
        ownerKey: key.apiKey,
        builder: String(order.signed.builder),
        signedAt: order.signedAt,
        market: order.market.conditionId,
        token: order.token,
        side: order.side,
        orderType: order.orderType,
        price: terms.price,
        size: terms.size,
        postOnly: order.postOnly,
        expiresAt: terms.expiresAt,
      });
    } catch (error) {
      this.core.risk.release(orderId);
      this.core.openOrders.forgetIntent(orderId);
      // Refused before its shard saw it: the same signed order may come again.
      if (error instanceof ShardStalled) this.known.forget(orderId);
      throw error;
    }
    const answered = performance.now();
    this.latency.recordMatch(answered - submitted, answered - started);
    if (result.type !== 'place' || !result.ok) {
      this.core.risk.release(orderId);
      this.core.openOrders.forgetIntent(orderId);
      if (result.type === 'place') {
        // Refused by the engine, the order was never accepted (nor recorded in the ledger): the
        // same signed order may come again. A shard's own duplicate refusal keeps it used.
        if (result.reason !== 'duplicate') this.known.forget(orderId);
        throw new IntakeError(REJECTIONS[result.reason](orderId));
      }
      // A command that failed before the engine acted on it never reached the ledger either (one
      // that failed part-way halts trading: ShardSet).
      if (result.type === 'error' && result.partial !== true) this.known.forget(orderId);
      throw new Error(result.type === 'error' ? result.message : `unexpected shard result ${result.type}`);
    }
    const tokens = formatUnits(result.filled);
    const collateral = formatUnits(result.notional);
    return {
      success: true,
      errorMsg: '',
      orderID: orderId,
      makingAmount: order.side === Side.BUY ? collateral : tokens,
      takingAmount: order.side === Side.BUY ? tokens : collateral,
      status: result.status,
      tradeIDs: result.tradeIds,
      transactionsHashes: result.tradeIds.map(transactionHash),
    };
  }

  private assertMakerControl(order: ParsedOrder): void {
    if (
      order.signatureType === 0
        ? order.maker !== order.signer
        : !this.proxies.controls(order.signer, order.maker, order.signatureType)
    ) {
      throw new IntakeError(
        order.signatureType === 0
          ? 'the order maker has to be the signer for signature type 0'
          : `the order maker ${order.maker} is not a registered proxy wallet of the signer`,
      );
    }
  }

  /**
   * Cancels every open order (and every one on its way to its shard) whose maker is `maker`,
   * whichever API key placed it; resolves to how many are still open after (one that filled,
   * expired or was killed meanwhile is not, though its cancel answers "can't be found").
   */
  async cancelMaker(maker: string): Promise<number> {
    const byKey = new Map<string, string[]>();
    for (const [owner, orderId] of this.ofMaker(maker)) byKey.set(owner, [...(byKey.get(owner) ?? []), orderId]);
    await Promise.all([...byKey].map(([apiKey, ids]) => this.cancel({ apiKey }, ids)));
    return this.ofMaker(maker).length;
  }

  /** [API key, order id] of the open and in-flight orders whose maker is `maker`. */
  private ofMaker(maker: string): [string, string][] {
    const found: [string, string][] = [];
    for (const order of this.core.openOrders.all()) if (order.maker === maker) found.push([order.owner, order.orderId]);
    for (const [orderId, intent] of this.core.openOrders.inFlight())
      if (intent.maker === maker) found.push([intent.owner, orderId]);
    return found;
  }

  /** Cancels the given orders of an API key; others are reported, not touched. */
  async cancel(key: Pick<ApiKeyRecord, 'apiKey'>, orderIds: readonly string[]): Promise<CancelResult> {
    // A null-prototype map, so that an id such as "__proto__" is reported like any other.
    const outcome: CancelResult = { canceled: [], not_canceled: Object.create(null) as Record<string, string> };
    await Promise.all(
      [...new Set(orderIds)].map(async (orderId) => {
        // An order still on its way through its shard is cancelled there too: the shard runs the
        // cancel after the place, so a cancel-all never misses an order it was sent after.
        const order = this.core.openOrders.get(orderId) ?? this.core.openOrders.intent(orderId);
        if (order === undefined || order.owner !== key.apiKey) {
          outcome.not_canceled[orderId] = "the order can't be found - already canceled or matched";
          return;
        }
        const notReady = this.core.notReady(order.market);
        if (notReady !== undefined) {
          outcome.not_canceled[orderId] = notReady.message;
          return;
        }
        let result;
        try {
          result = await this.shards.submit(this.shards.shardOf(order.market), {
            type: 'cancel',
            orderId,
            owner: order.maker,
          });
        } catch (error) {
          // Each id is answered whatever happens to another's (a key's deletion reports what is left).
          if (!(error instanceof HttpError)) logger('clob').error({ err: error }, `cancel of ${orderId} failed`);
          outcome.not_canceled[orderId] =
            error instanceof HttpError ? error.message : 'internal server error: the cancel did not complete; retry';
          return;
        }
        if (result.type === 'cancel' && result.ok) outcome.canceled.push(orderId);
        else outcome.not_canceled[orderId] = "the order can't be found - already canceled or matched";
      }),
    );
    return outcome;
  }

  /** Cancels every open order of an API key, optionally only in one market or one token. */
  cancelAll(
    key: Pick<ApiKeyRecord, 'apiKey'>,
    filter: { market?: string; assetId?: string } = {},
  ): Promise<CancelResult> {
    const wanted = (o: { market: string; assetId: string }) =>
      (filter.market === undefined || o.market === filter.market) &&
      (filter.assetId === undefined || o.assetId === filter.assetId);
    const open = this.core.openOrders
      .ofOwner(key.apiKey)
      .filter(wanted)
      .map((o) => o.orderId);
    const inFlight = this.core.openOrders
      .intentsOf(key.apiKey)
      .filter(([, intent]) => wanted(intent))
      .map(([orderId]) => orderId);
    return this.cancel(key, [...open, ...inFlight]);
  }
}

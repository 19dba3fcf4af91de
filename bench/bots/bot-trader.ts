// One bot as an outside trader: a wallet of its own, an API key made (or derived) with a level-1
// signature, level-2 headers on every call, orders signed on the bench's fast path, and only the
// exchange's public HTTP API. It keeps its belief (belief.ts) from the answers it gets and counts
// what it did in the run's metrics.

import { signL2 } from '@pmx/signing';
import { signAmounts, walletWithL1Headers, type BenchTrader } from '../clob/signed-orders.ts';
import {
  Belief,
  COLLATERAL,
  collateralOf,
  UNITS,
  type BotOrder,
  type OrderSide,
  type PlaceAnswer,
  type RunMarket,
} from './belief.ts';
import { ExchangeHttp, type HttpAnswer } from './exchange-http.ts';
import type { RequestKind, RunMetrics } from './run-metrics.ts';

export type BotKind = 'maker' | 'taker' | 'noise';

/** An order a bot means to place: whole tokens at a price in cents of a 0.01-tick market. */
export interface PlannedOrder {
  market: RunMarket;
  token: 0 | 1;
  side: OrderSide;
  cents: number;
  /** Whole tokens. */
  tokens: number;
  orderType: 'GTC' | 'FOK' | 'FAK';
  postOnly?: boolean;
}

/** What an order may spend: a BUY its collateral at its limit, a SELL its tokens. */
export function spendOf(order: PlannedOrder): [asset: string, amount: number] {
  return order.side === 'BUY'
    ? [COLLATERAL, collateralOf(order.tokens * UNITS, order.cents)]
    : [order.market.tokens[order.token], order.tokens * UNITS];
}

/** Orders per POST /orders, as the exchange allows. */
export const MAX_BATCH = 15;

export class BotTrader {
  readonly belief = new Belief();
  private trader!: BenchTrader;

  private constructor(
    readonly kind: BotKind,
    readonly name: string,
    private readonly http: ExchangeHttp,
    private readonly metrics: RunMetrics,
  ) {}

  /** A new wallet with its API key: POST /auth/api-key, or GET /auth/derive-api-key when one exists. */
  static async open(
    kind: BotKind,
    name: string,
    baseUrl: string,
    metrics: RunMetrics,
    localAddress?: string,
  ): Promise<BotTrader> {
    const bot = new BotTrader(kind, name, new ExchangeHttp(baseUrl, localAddress), metrics);
    const { privateKey, address, headers } = await walletWithL1Headers();
    let answer = await bot.http.send('POST', '/auth/api-key', { headers });
    if (answer.status === 400) answer = await bot.http.send('GET', '/auth/derive-api-key', { headers });
    if (answer.status !== 200) throw new Error(`${name}: API key: ${answer.status} ${JSON.stringify(answer.body)}`);
    const { apiKey, secret, passphrase } = answer.body as { apiKey: string; secret: string; passphrase: string };
    bot.trader = { privateKey, address, apiKey, secret, passphrase };
    return bot;
  }

  get address(): string {
    return this.trader.address;
  }

  get apiKey(): string {
    return this.trader.apiKey;
  }

  get credentials(): BenchTrader {
    return this.trader;
  }

  get sourceAddress(): string | undefined {
    return this.http.localAddress;
  }

  /**
   * A level-2 request; undefined when no answer came (counted as a request error). A 429 is
   * waited out by its Retry-After, up to `deadline`.
   */
  async authed(
    method: string,
    pathWithQuery: string,
    kind: RequestKind,
    payload?: unknown,
    deadline?: number,
  ): Promise<HttpAnswer | undefined> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const path = pathWithQuery.split('?')[0]!;
    const t = this.trader;
    const sign = () => {
      const timestamp = Math.floor(Date.now() / 1000);
      return {
        SVC_ADDRESS: t.address,
        SVC_API_KEY: t.apiKey,
        SVC_PASSPHRASE: t.passphrase,
        SVC_TIMESTAMP: String(timestamp),
        SVC_SIGNATURE: signL2(t.secret, timestamp, method, path, body ?? ''),
      };
    };
    try {
      const answer = await this.http.send(method, pathWithQuery, { body, sign, deadline });
      this.metrics.request(kind, answer.ms, answer.throttled);
      return answer;
    } catch (error) {
      this.metrics.requestFailed(`${method} ${path}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Signs and sends orders (POST /order for one, POST /orders for up to 15); learns each answer. */
  async place(orders: readonly PlannedOrder[], deadline?: number): Promise<BotOrder[]> {
    const placed: BotOrder[] = [];
    for (let i = 0; i < orders.length; i += MAX_BATCH) {
      const batch = orders.slice(i, i + MAX_BATCH);
      const signed = batch.map((order) => this.sign(order));
      for (const s of signed) this.belief.pending.add(s.orderId);
      const holds = batch.map((order) => spendOf(order));
      for (const [asset, amount] of holds) this.belief.hold(asset, amount);
      const answer =
        batch.length === 1
          ? await this.authed('POST', '/order', 'place', signed[0]!.envelope, deadline)
          : await this.authed(
              'POST',
              '/orders',
              'place',
              signed.map((s) => s.envelope),
              deadline,
            );
      for (const [asset, amount] of holds) this.belief.hold(asset, -amount);
      this.metrics.orders(batch.length, 0);
      const answers = this.answersOf(answer, batch.length);
      batch.forEach((order, k) => {
        const result = answers[k];
        const { orderId } = signed[k]!;
        this.belief.pending.delete(orderId);
        if (result === undefined || typeof result === 'string') {
          this.metrics.reject(result ?? 'no answer', this.kind);
          return;
        }
        const record = this.belief.placed({ ...order, id: orderId, size: order.tokens * UNITS }, result);
        this.metrics.orders(0, 1);
        this.metrics.fills(result.tradeIDs?.length ?? 0);
        placed.push(record);
      });
    }
    return placed;
  }

  /** Each order's answer, or the reason it was refused (the whole request's, when it failed whole). */
  private answersOf(answer: HttpAnswer | undefined, count: number): (PlaceAnswer | string | undefined)[] {
    if (answer === undefined) return Array.from({ length: count }, () => undefined);
    if (answer.status !== 200) {
      const error = String(typeof answer.body === 'object' ? answer.body?.error : answer.body);
      // A refusal (400) reads as in a batch's answers; other statuses keep theirs (429, 425, 503 …).
      const message = answer.status === 400 ? error : `HTTP ${answer.status}: ${error}`;
      return Array.from({ length: count }, () => message);
    }
    const list = (Array.isArray(answer.body) ? answer.body : [answer.body]) as PlaceAnswer[];
    return list.map((r) => (r?.success === true ? r : String((r as { errorMsg?: string })?.errorMsg ?? 'no result')));
  }

  private sign(order: PlannedOrder): { envelope: Record<string, unknown>; orderId: string } {
    const size = BigInt(order.tokens) * BigInt(UNITS);
    const collateral = (size * BigInt(order.cents)) / 100n;
    return signAmounts(this.trader, {
      tokenId: order.market.tokens[order.token],
      side: order.side,
      makerAmount: order.side === 'BUY' ? collateral : size,
      takerAmount: order.side === 'BUY' ? size : collateral,
      orderType: order.orderType,
      ...(order.postOnly === true ? { postOnly: true } : {}),
    });
  }

  /** DELETE /orders; the cancelled ones are closed in the belief (their fills until then are learnt later). */
  async cancel(ids: readonly string[], deadline?: number): Promise<void> {
    if (ids.length === 0) return;
    for (const id of ids) this.belief.cancelling.add(id);
    try {
      this.cancelled(await this.authed('DELETE', '/orders', 'cancel', ids, deadline));
    } finally {
      for (const id of ids) this.belief.cancelling.delete(id);
    }
  }

  /** DELETE /cancel-all: every open order of the key. */
  async cancelAll(): Promise<void> {
    const ids = [...this.belief.open.keys()];
    for (const id of ids) this.belief.cancelling.add(id);
    try {
      this.cancelled(await this.authed('DELETE', '/cancel-all', 'cancel'));
    } finally {
      for (const id of ids) this.belief.cancelling.delete(id);
    }
  }

  private cancelled(answer: HttpAnswer | undefined): void {
    if (answer?.status !== 200) return;
    const { canceled = [] } = answer.body as { canceled?: string[] };
    const at = Date.now();
    for (const id of canceled) {
      this.belief.close(id, at);
      // What it filled before the cancel is read back once (Reconciler.orders).
      if (this.belief.orders.has(id)) this.belief.unsettled.add(id);
    }
    this.metrics.cancels(canceled.length);
  }

  /** POST /heartbeats: arms (empty id) or refreshes the dead-man switch; returns the id to send next. */
  async heartbeat(id: string): Promise<string> {
    const answer = await this.authed('POST', '/heartbeats', 'heartbeat', { heartbeat_id: id });
    if (answer?.status === 200) return String((answer.body as { heartbeat_id: string }).heartbeat_id);
    if (answer?.status !== 400) return id;
    // Too late or not current: the switch fired (the orders are being cancelled); arm it again.
    this.metrics.reject(`heartbeat: ${(answer.body as { error?: string }).error}`, this.kind);
    return '';
  }

  close(): void {
    this.http.close();
  }
}

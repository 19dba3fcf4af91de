// One bot as an outside trader: a wallet of its own, an API key made (or derived) with a level-1
// signature, level-2 headers on every call, orders signed on the bench's fast path, and only the
// exchange's public HTTP API. It keeps its belief (belief.ts) from the answers it gets and counts
// what it did in the run's metrics. A 425 is sent again (exchange-http.ts; a batch's recovering
// items here), an answer of unknown outcome is looked up (doubts.ts), a heartbeat refused re-arms.

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
  type SignedOrder,
} from './belief.ts';
import { failureOf, settleCancel, settleOrder } from './doubts.ts';
import { ExchangeHttp, RECOVERING_LIMIT_MS, recoveringPauseMs, type HttpAnswer } from './exchange-http.ts';
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

/** How long a bot keeps looking up what is in doubt before it goes on (the run's end looks again). */
export const SETTLE_LIMIT_MS = 30_000;

/** An order's refusal: its HTTP status (200 for a batch item, undefined without an answer) and wording. */
interface Refusal {
  status: number | undefined;
  message: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type SignedPlan = { order: PlannedOrder; envelope: Record<string, unknown>; orderId: string };

export class BotTrader {
  readonly belief = new Belief();
  private trader!: BenchTrader;

  private constructor(
    readonly kind: BotKind,
    readonly name: string,
    private readonly http: ExchangeHttp,
    readonly metrics: RunMetrics,
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
      const onRecovering = () => this.metrics.recovering(kind);
      const answer = await this.http.send(method, pathWithQuery, { body, sign, deadline, onRecovering });
      this.metrics.request(kind, answer.ms, answer.throttled);
      return answer;
    } catch (error) {
      this.metrics.requestFailed(`${method} ${path}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /**
   * Signs and sends orders (POST /order for one, POST /orders for up to 15); learns each answer.
   * Orders answered 425 go again, the same signed order, after a short pause; orders of unknown
   * outcome are looked up before this returns (those still in doubt stay so in the belief).
   */
  async place(orders: readonly PlannedOrder[], deadline?: number): Promise<BotOrder[]> {
    const placed: BotOrder[] = [];
    for (let i = 0; i < orders.length; i += MAX_BATCH) {
      let todo: SignedPlan[] = orders.slice(i, i + MAX_BATCH).map((order) => ({ order, ...this.signOrder(order) }));
      this.metrics.orders(todo.length, 0);
      const until = Math.min(deadline ?? Infinity, Date.now() + RECOVERING_LIMIT_MS);
      for (;;) {
        const again = await this.send(todo, placed, deadline);
        const pause = recoveringPauseMs();
        if (again.length === 0 || Date.now() + pause > until) break;
        await sleep(pause);
        todo = again;
      }
    }
    if (this.belief.inDoubt.size > 0) await this.settleDoubts();
    return placed;
  }

  /** One POST of signed orders; returns those answered "recovering", to be sent again. */
  private async send(todo: SignedPlan[], placed: BotOrder[], deadline?: number): Promise<SignedPlan[]> {
    for (const s of todo) this.belief.pending.add(s.orderId);
    const holds = todo.map((s) => spendOf(s.order));
    for (const [asset, amount] of holds) this.belief.hold(asset, amount);
    const sentAt = Date.now();
    const answer =
      todo.length === 1
        ? await this.authed('POST', '/order', 'place', todo[0]!.envelope, deadline)
        : await this.authed(
            'POST',
            '/orders',
            'place',
            todo.map((s) => s.envelope),
            deadline,
          );
    for (const [asset, amount] of holds) this.belief.hold(asset, -amount);
    const answers = this.answersOf(answer, todo.length);
    const again: SignedPlan[] = [];
    todo.forEach(({ order, orderId }, k) => {
      const result = answers[k]!;
      const signed = { ...order, id: orderId, size: order.tokens * UNITS };
      if ('success' in result) {
        const record = this.belief.placed(signed, result);
        this.metrics.orders(0, 1, sentAt);
        this.metrics.fills(result.tradeIDs?.length ?? 0);
        placed.push(record);
      } else {
        const failure = failureOf(result.status, result.message);
        // A whole request's 425 was counted as it came; a batch item's is counted here.
        if (failure === 'recovering' && result.status === 200) this.metrics.recovering('place');
        if (failure === 'recovering') again.push(todo[k]!);
        if (failure === 'unknown') this.inDoubt(signed, holds[k]!, result.message);
        if (failure === 'refused') this.metrics.reject(result.message, this.kind);
      }
      this.belief.pending.delete(orderId);
    });
    return again;
  }

  private inDoubt(order: SignedOrder, hold: [string, number], message: string): void {
    this.belief.doubt(order, hold);
    this.metrics.inDoubt('order');
    if (/Duplicated\./.test(message)) this.metrics.doubt('duplicates');
  }

  /**
   * Looks up every order in doubt and reads back every order whose cancel is in doubt, again and
   * again (a pause between rounds) until all are settled or `limitMs` has passed.
   */
  async settleDoubts(limitMs = SETTLE_LIMIT_MS): Promise<void> {
    const until = Date.now() + limitMs;
    const { belief } = this;
    for (;;) {
      // A pause first: the exchange may still be recovering what the answer lost.
      await sleep(100 + recoveringPauseMs());
      for (const id of [...belief.inDoubt.keys()]) {
        const settled = await settleOrder(this, id);
        if (settled === undefined) continue;
        if (!settled.placed) this.metrics.doubt('foundNotPlaced');
        else {
          this.metrics.doubt('foundPlaced');
          this.metrics.orders(0, 1);
          this.metrics.fills(settled.takerTrades);
        }
      }
      for (const id of [...belief.cancelsInDoubt]) await settleCancel(this, id);
      if ((belief.inDoubt.size === 0 && belief.cancelsInDoubt.size === 0) || Date.now() >= until) return;
    }
  }

  /** Each order's answer, or its refusal (the whole request's, when it failed whole). */
  private answersOf(answer: HttpAnswer | undefined, count: number): (PlaceAnswer | Refusal)[] {
    if (answer === undefined) return Array.from({ length: count }, () => ({ status: undefined, message: 'no answer' }));
    if (answer.status !== 200) {
      const error = String(typeof answer.body === 'object' ? answer.body?.error : answer.body);
      // A refusal (400) reads as in a batch's answers; other statuses keep theirs (429, 425, 503 …).
      const message = answer.status === 400 ? error : `HTTP ${answer.status}: ${error}`;
      return Array.from({ length: count }, () => ({ status: answer.status, message }));
    }
    const list = (Array.isArray(answer.body) ? answer.body : [answer.body]) as PlaceAnswer[];
    return list.map((r) =>
      r?.success === true ? r : { status: 200, message: String((r as { errorMsg?: string })?.errorMsg ?? 'no result') },
    );
  }

  signOrder(order: PlannedOrder): { envelope: Record<string, unknown>; orderId: string } {
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
    await this.cancelling(ids, () => this.authed('DELETE', '/orders', 'cancel', ids, deadline));
  }

  /** DELETE /cancel-all: every open order of the key. */
  async cancelAll(): Promise<void> {
    await this.cancelling([...this.belief.open.keys()], () => this.authed('DELETE', '/cancel-all', 'cancel'));
  }

  /** Sends a cancel of `ids`, learns its answer; a cancel of unknown outcome is settled by reading the orders. */
  private async cancelling(ids: readonly string[], send: () => Promise<HttpAnswer | undefined>): Promise<void> {
    for (const id of ids) this.belief.cancelling.add(id);
    try {
      this.cancelled(await send(), ids);
    } finally {
      for (const id of ids) this.belief.cancelling.delete(id);
    }
    if (this.belief.cancelsInDoubt.size > 0) await this.settleDoubts();
  }

  private cancelled(answer: HttpAnswer | undefined, ids: readonly string[]): void {
    if (answer === undefined || answer.status >= 500) {
      this.cancelsInDoubt(ids);
      return;
    }
    if (answer.status !== 200) return;
    const { canceled = [], not_canceled: notCanceled = {} } = answer.body as {
      canceled?: string[];
      not_canceled?: Record<string, string>;
    };
    const at = Date.now();
    for (const id of canceled) {
      this.belief.close(id, at);
      // What it filled before the cancel is read back once (Reconciler.orders).
      if (this.belief.orders.has(id)) this.belief.unsettled.add(id);
    }
    this.metrics.cancels(canceled.length);
    this.cancelsInDoubt(Object.keys(notCanceled).filter((id) => failureOf(200, notCanceled[id]!) === 'unknown'));
  }

  /** Open orders whose cancel may or may not have been carried out: read again before judged. */
  private cancelsInDoubt(ids: readonly string[]): void {
    const open = ids.filter((id) => this.belief.open.has(id));
    for (const id of open) this.belief.cancelsInDoubt.add(id);
    if (open.length > 0) this.metrics.inDoubt('cancel', open.length);
  }

  /**
   * POST /heartbeats: arms (empty id) or refreshes the dead-man switch; returns the id to send
   * next. A refusal (not current, or late) means the switch is gone and may have fired: the open
   * orders are read again, and the switch is armed again at once with "", as the official client does.
   */
  async heartbeat(id: string): Promise<string> {
    const answer = await this.authed('POST', '/heartbeats', 'heartbeat', { heartbeat_id: id });
    if (answer?.status === 200) return String((answer.body as { heartbeat_id: string }).heartbeat_id);
    if (answer?.status !== 400) return id;
    this.metrics.doubt('heartbeatRearms');
    this.cancelsInDoubt([...this.belief.open.keys()]);
    return id === '' ? '' : this.heartbeat('');
  }

  close(): void {
    this.http.close();
  }
}

// What one bot believes about its account, from what the exchange told it: its deposits, the
// answer to each order it placed (what it gave and got at once, the trades it took), the fills of
// its resting orders as it learns them, and which of its orders are open. Balances are base units
// (6 decimals) as integers; a resting order fills at its own limit, so a maker fill's collateral
// is exact: size × price in cents / 100, with sizes in lots of 10,000 base units. An order whose
// answer left its outcome unknown is in doubt: held back at its full spend, judged by nobody,
// until the bot has looked it up and adopted what the exchange says (or learnt it was not placed).

export const COLLATERAL = 'collateral';
export const UNITS = 1_000_000;

export interface RunMarket {
  conditionId: string;
  /** Token ids: index 0 (Yes) and 1 (No). */
  tokens: [string, string];
}

export type OrderSide = 'BUY' | 'SELL';

export interface BotOrder {
  id: string;
  market: RunMarket;
  token: 0 | 1;
  side: OrderSide;
  cents: number;
  /** Base units of tokens. */
  size: number;
  /** Matched so far as the bot knows it (taking at placement plus fills while resting). */
  matched: number;
  /** Matched when placed (from the answer's amounts); the rest is filled while resting. */
  takerMatched: number;
  orderType: string;
  open: boolean;
  /** When the bot learnt the order rests (ms); 0 for one that never rested. */
  restingSince: number;
  /** When its cancel was acknowledged (ms), if the bot cancelled it. */
  cancelAckedAt?: number;
}

/** The place-order answer fields the belief reads. */
export interface PlaceAnswer {
  success: boolean;
  orderID: string;
  status: string;
  makingAmount: string;
  takingAmount: string;
  tradeIDs?: string[];
}

/** An order as signed, before the exchange has said anything of it. */
export type SignedOrder = Omit<BotOrder, 'matched' | 'takerMatched' | 'open' | 'restingSince'>;

/** An order whose answer left its outcome unknown. */
export interface OrderInDoubt {
  order: SignedOrder;
  /** When its answer came (ms). */
  since: number;
  /** What it may spend, held back until it is settled. */
  hold: [asset: string, amount: number];
}

/** What a lookup found of an order in doubt: its taking when placed (from its taker trades) and now. */
export interface FoundOrder {
  /** Base units it gave and got as taker, as its place answer would have said. */
  making: number;
  taking: number;
  takerTrades: string[];
  /** Matched in all now (taking plus fills while resting), base units. */
  matched: number;
  /** Still resting (LIVE). */
  live: boolean;
}

/** A decimal string of at most 6 decimals → base units. */
export function baseUnits(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) throw new Error(`not an amount: ${JSON.stringify(text)}`);
  return Number(match[1]) * UNITS + Number((match[2] ?? '').padEnd(6, '0'));
}

/** Collateral for `size` base units at `cents`: exact, as sizes are whole lots. */
export function collateralOf(size: number, cents: number): number {
  return (size * cents) / 100;
}

export class Belief {
  readonly balances = new Map<string, number>();
  readonly orders = new Map<string, BotOrder>();
  readonly open = new Map<string, BotOrder>();
  /** Trades this bot took, as its place answers listed them. */
  readonly takerTrades = new Set<string>();
  /** Orders sent whose answer has not come yet (their ids are the orders' EIP-712 hashes). */
  readonly pending = new Set<string>();
  /** Open orders whose cancel was sent and not yet answered. */
  readonly cancelling = new Set<string>();
  /** Cancelled orders whose fills before the cancel are not known yet. */
  readonly unsettled = new Set<string>();
  /** Orders whose answer left the outcome unknown, until looked up. */
  readonly inDoubt = new Map<string, OrderInDoubt>();
  /** Open orders whose cancel's outcome is unknown, until read again. */
  readonly cancelsInDoubt = new Set<string>();

  balance(asset: string): number {
    return this.balances.get(asset) ?? 0;
  }

  private add(asset: string, delta: number): void {
    this.balances.set(asset, this.balance(asset) + delta);
  }

  /** A BUY gives collateral for tokens, a SELL tokens for collateral. */
  private trade(side: OrderSide, token: string, tokens: number, collateral: number): void {
    const sign = side === 'BUY' ? 1 : -1;
    this.add(token, sign * tokens);
    this.add(COLLATERAL, -sign * collateral);
  }

  deposit(asset: string, amount: number): void {
    this.add(asset, amount);
  }

  /** What open orders hold back of an asset: a BUY its rest at its limit, a SELL its rest of tokens. */
  reserved(asset: string): number {
    let sum = 0;
    for (const order of this.open.values()) {
      const left = order.size - order.matched;
      if (order.side === 'BUY' && asset === COLLATERAL) sum += collateralOf(left, order.cents);
      if (order.side === 'SELL' && asset === order.market.tokens[order.token]) sum += left;
    }
    return sum;
  }

  /** What in-flight orders may spend: held back until their answers come. */
  private readonly holds = new Map<string, number>();

  hold(asset: string, amount: number): void {
    this.holds.set(asset, (this.holds.get(asset) ?? 0) + amount);
  }

  available(asset: string): number {
    return this.balance(asset) - this.reserved(asset) - (this.holds.get(asset) ?? 0);
  }

  /** Not judged yet: its answer is on its way, or its outcome is in doubt. */
  unsure(orderId: string): boolean {
    return this.pending.has(orderId) || this.inDoubt.has(orderId);
  }

  /** Takes in an accepted order's answer: what it gave and got at once, and whether it rests. */
  placed(order: SignedOrder, answer: PlaceAnswer): BotOrder {
    const making = baseUnits(answer.makingAmount);
    const taking = baseUnits(answer.takingAmount);
    return this.took(order, making, taking, answer.tradeIDs ?? [], answer.status === 'live');
  }

  /** An order whose outcome is unknown: held back at its full spend until it is settled. */
  doubt(order: SignedOrder, hold: [asset: string, amount: number]): void {
    this.inDoubt.set(order.id, { order, since: Date.now(), hold });
    this.hold(hold[0], hold[1]);
  }

  /** A lookup found no such order: it was never placed. */
  notPlaced(orderId: string): boolean {
    const doubt = this.inDoubt.get(orderId);
    if (doubt === undefined) return false;
    this.inDoubt.delete(orderId);
    this.hold(doubt.hold[0], -doubt.hold[1]);
    return true;
  }

  /**
   * A lookup found the order: it is taken in once, as its answer would have told it (its taker
   * trades), then its fills while resting at its limit; false when it is not (or no longer) in doubt.
   */
  adopt(orderId: string, found: FoundOrder): boolean {
    const doubt = this.inDoubt.get(orderId);
    if (doubt === undefined || this.orders.has(orderId)) return false;
    this.inDoubt.delete(orderId);
    this.hold(doubt.hold[0], -doubt.hold[1]);
    const takerTokens = doubt.order.side === 'BUY' ? found.taking : found.making;
    this.took(doubt.order, found.making, found.taking, found.takerTrades, found.live || found.matched > takerTokens);
    this.matchedNow(orderId, found.matched);
    if (!found.live) this.close(orderId);
    return true;
  }

  private took(
    order: SignedOrder,
    making: number,
    taking: number,
    tradeIds: readonly string[],
    rests: boolean,
  ): BotOrder {
    const token = order.market.tokens[order.token];
    const tokens = order.side === 'BUY' ? taking : making;
    this.trade(order.side, token, tokens, order.side === 'BUY' ? making : taking);
    for (const id of tradeIds) this.takerTrades.add(id);
    const record: BotOrder = {
      ...order,
      matched: tokens,
      takerMatched: tokens,
      open: rests,
      restingSince: rests ? Date.now() : 0,
    };
    this.orders.set(record.id, record);
    if (rests) this.open.set(record.id, record);
    return record;
  }

  /**
   * A resting order is now known to have matched `matched` in all: the difference filled at its
   * limit. Returns false (and learns nothing) when that is less than the bot already knew.
   */
  matchedNow(orderId: string, matched: number): boolean {
    const order = this.orders.get(orderId);
    if (order === undefined) return false;
    if (matched < order.matched) return false;
    const delta = matched - order.matched;
    if (delta === 0) return true;
    order.matched = matched;
    this.trade(order.side, order.market.tokens[order.token], delta, collateralOf(delta, order.cents));
    if (order.matched >= order.size) this.close(orderId);
    return true;
  }

  close(orderId: string, cancelAckedAt?: number): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    order.open = false;
    if (cancelAckedAt !== undefined) order.cancelAckedAt = cancelAckedAt;
    this.open.delete(orderId);
  }

  /** Open orders of a market, by token and side. */
  openOf(market: RunMarket): BotOrder[] {
    return [...this.open.values()].filter((order) => order.market === market);
  }
}

// Reads what the exchange says of a bot — its open orders (GET /data/orders, GET /data/order/{id})
// and its trades (GET /data/trades) — learns the fills of its resting orders from it, and counts
// every disagreement with what the bot believes, by kind. Timing is allowed for: an order placed
// or cancelled after a listing started is not judged by it, and trades reach /data/trades only
// once ingest has stored them. An order in doubt (its answer's outcome unknown, or its cancel's)
// is not judged while it is: the bot settles it first (doubts.ts); the end check counts any left.

import { baseUnits, type BotOrder } from './belief.ts';
import type { BotTrader } from './bot-trader.ts';

interface WireOrder {
  id: string;
  status: string;
  size_matched: string;
  original_size: string;
}

interface WireTrade {
  id: string;
  taker_order_id: string;
  type: 'TAKER' | 'MAKER';
  size: string;
  maker_orders: { order_id: string; maker_address: string; matched_amount: string }[];
}

export class Reconciler {
  readonly disagreements = new Map<string, number>();
  /** Per bot: trade ids already read from /data/trades. */
  private readonly readTrades = new WeakMap<BotTrader, Set<string>>();
  /** Per bot and order: its fills as maker in the trades read (base units). */
  readonly makerFills = new WeakMap<BotTrader, Map<string, number>>();
  /** Per bot and taker order: the sizes of its trades as read. */
  readonly takerSizes = new WeakMap<BotTrader, Map<string, number>>();
  checks = 0;

  private disagree(kind: string, count = 1): void {
    this.disagreements.set(kind, (this.disagreements.get(kind) ?? 0) + count);
  }

  get total(): number {
    return [...this.disagreements.values()].reduce((a, b) => a + b, 0);
  }

  /** One listing of the bot's open orders against its belief; learns the fills it shows. */
  async orders(bot: BotTrader, deadline?: number): Promise<void> {
    // What is in doubt is looked up first (one round): the listing then judges it as settled.
    if (bot.belief.inDoubt.size > 0 || bot.belief.cancelsInDoubt.size > 0) await bot.settleDoubts(0);
    const startedAt = Date.now();
    // What the bot knew when the listing started: fills learnt meanwhile (from the trades) may
    // run ahead of the listing's snapshot without it being wrong.
    const knownBefore = new Map([...bot.belief.open.values()].map((order) => [order.id, order.matched]));
    const listed = await this.pages<WireOrder>(bot, '/data/orders', deadline);
    if (listed === undefined) return;
    this.checks++;
    const seen = new Set<string>();
    for (const wire of listed) {
      seen.add(wire.id);
      const order = bot.belief.orders.get(wire.id);
      if (order === undefined) {
        if (!bot.belief.unsure(wire.id)) this.disagree('open order the bot does not know');
        continue;
      }
      if (order.cancelAckedAt !== undefined && order.cancelAckedAt < startedAt)
        this.disagree('order open after its cancel was acknowledged');
      const matched = baseUnits(wire.size_matched);
      if (matched < (knownBefore.get(wire.id) ?? 0)) this.disagree('matched amount lower than the bot knew');
      else if (matched > order.matched) bot.belief.matchedNow(wire.id, matched);
    }
    const gone = [...bot.belief.open.values()].filter(
      (order) =>
        !seen.has(order.id) &&
        order.restingSince > 0 &&
        order.restingSince < startedAt &&
        !bot.belief.cancelsInDoubt.has(order.id),
    );
    for (const order of gone) await this.closedOrder(bot, order, deadline);
    for (const id of [...bot.belief.unsettled]) await this.cancelledOrder(bot, id, deadline);
  }

  /** A cancelled order read back once: what it filled before the cancel took it. */
  private async cancelledOrder(bot: BotTrader, id: string, deadline?: number): Promise<void> {
    const answer = await bot.authed('GET', `/data/order/${id}`, 'read', undefined, deadline);
    if (answer?.status !== 200) return;
    bot.belief.unsettled.delete(id);
    if (!bot.belief.matchedNow(id, baseUnits((answer.body as WireOrder).size_matched)))
      this.disagree('matched amount lower than the bot knew');
  }

  /** An order the bot believes open that the listing lacks: read it alone, learn how it closed. */
  private async closedOrder(bot: BotTrader, order: BotOrder, deadline?: number): Promise<void> {
    const answer = await bot.authed('GET', `/data/order/${order.id}`, 'read', undefined, deadline);
    if (answer === undefined) return;
    if (answer.status === 404) {
      this.disagree('resting order not found');
      bot.belief.close(order.id);
      return;
    }
    if (answer.status !== 200) return;
    const wire = answer.body as WireOrder;
    if (!bot.belief.matchedNow(order.id, baseUnits(wire.size_matched)))
      this.disagree('matched amount lower than the bot knew');
    if (wire.status === 'LIVE') return; // opened again in the listing's blind spot: next time
    const asked = bot.belief.cancelling.has(order.id) || bot.belief.cancelsInDoubt.has(order.id);
    if (wire.status === 'CANCELED' && order.open && !asked) this.disagree('order cancelled without the bot asking');
    bot.belief.close(order.id);
  }

  /**
   * The bot's trades newest first, until a page brings nothing new (or all, with `all`): a taker
   * trade its answers never listed, or a fill of an order it does not know, is a disagreement.
   */
  async trades(bot: BotTrader, all = false, deadline?: number): Promise<void> {
    let read = this.readTrades.get(bot);
    if (read === undefined) this.readTrades.set(bot, (read = new Set()));
    let cursor = 'MA==';
    for (;;) {
      const answer = await bot.authed(
        'GET',
        `/data/trades?next_cursor=${encodeURIComponent(cursor)}`,
        'read',
        undefined,
        deadline,
      );
      if (answer?.status !== 200) return;
      const page = answer.body as { data: WireTrade[]; next_cursor: string };
      let fresh = 0;
      for (const trade of page.data) {
        if (read.has(trade.id)) continue;
        if (!this.trade(bot, trade)) continue; // its order's answer is still on its way: read it next time
        read.add(trade.id);
        fresh++;
      }
      if (page.next_cursor === 'LTE=' || (fresh === 0 && !all)) return;
      cursor = page.next_cursor;
    }
  }

  /** Takes in one trade; false when it cannot be judged yet. */
  private trade(bot: BotTrader, trade: WireTrade): boolean {
    const { belief } = bot;
    const address = bot.address.toLowerCase();
    const mine = trade.maker_orders.filter((m) => m.maker_address === address);
    if (belief.unsure(trade.taker_order_id) || mine.some((m) => belief.unsure(m.order_id))) return false;
    if (trade.type === 'TAKER') {
      if (!belief.takerTrades.has(trade.id)) this.disagree('taker trade the bot was never told of');
      const sizes = this.mapOf(this.takerSizes, bot);
      sizes.set(trade.taker_order_id, (sizes.get(trade.taker_order_id) ?? 0) + baseUnits(trade.size));
    }
    const fills = this.mapOf(this.makerFills, bot);
    for (const fill of mine) {
      const order = belief.orders.get(fill.order_id);
      if (order === undefined) this.disagree('fill of an order the bot does not know');
      const filled = (fills.get(fill.order_id) ?? 0) + baseUnits(fill.matched_amount);
      fills.set(fill.order_id, filled);
      // Fills arrive trade by trade: learn them once they reach past what the bot knew.
      if (order !== undefined && order.takerMatched + filled > order.matched)
        belief.matchedNow(order.id, order.takerMatched + filled);
    }
    return true;
  }

  private mapOf(maps: WeakMap<BotTrader, Map<string, number>>, bot: BotTrader): Map<string, number> {
    let map = maps.get(bot);
    if (map === undefined) maps.set(bot, (map = new Map()));
    return map;
  }

  /** Every page of a cursor list; undefined when a page could not be read. */
  private async pages<T>(bot: BotTrader, path: string, deadline?: number): Promise<T[] | undefined> {
    const all: T[] = [];
    let cursor = 'MA==';
    for (;;) {
      const answer = await bot.authed(
        'GET',
        `${path}?next_cursor=${encodeURIComponent(cursor)}`,
        'read',
        undefined,
        deadline,
      );
      if (answer?.status !== 200) return undefined;
      const page = answer.body as { data: T[]; next_cursor: string };
      all.push(...page.data);
      if (page.next_cursor === 'LTE=' || page.data.length === 0) return all;
      cursor = page.next_cursor;
    }
  }
}

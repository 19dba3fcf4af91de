// What each kind of bot does until the run's end. Makers quote both outcomes of every market in
// bands around the fair value (bands.ts) with an inventory skew, post-only, in batches, with the
// heartbeat armed, and cancel everything on stop. Takers cross with FOK and FAK orders at Poisson
// times and sizes. Noise traders rest small GTC orders near the fair value (some cross) and cancel
// them after a random while. No bot spends what it believes it does not have.

import { planBands, type Band, type Quote } from './bands.ts';
import { COLLATERAL, UNITS, type BotOrder, type RunMarket } from './belief.ts';
import type { BotTrader, PlannedOrder } from './bot-trader.ts';
import type { FairValues } from './fair-values.ts';
import type { Reconciler } from './reconciler.ts';

export interface CrowdOptions {
  /** Makers' time between quote updates, ms (each is jittered by ±25 %). */
  quoteMs: number;
  bands: Band[];
  /** Cents the quotes move against a full inventory. */
  skewCents: number;
  /** Tokens of net inventory (Yes − No) that count as full. */
  maxInventory: number;
  /** Orders per second per taker and per noise trader (Poisson means). */
  takerRate: number;
  noiseRate: number;
  /** The markets' minimum order size in tokens. */
  minTokens: number;
  heartbeatMs: number;
}

export interface Crowd {
  markets: RunMarket[];
  fair: FairValues;
  reconciler: Reconciler;
  random: () => number;
  options: CrowdOptions;
  /** No new orders from this time (ms since the epoch). */
  stopAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const yesCents = (crowd: Crowd, market: RunMarket) => crowd.fair.of(crowd.markets.indexOf(market));

/** A resting order as a quote in Yes terms: buying Yes or selling No bids, the others ask. */
export function quoteOf(order: BotOrder): Quote {
  const bid = (order.token === 0) === (order.side === 'BUY');
  return {
    id: order.id,
    side: bid ? 'bid' : 'ask',
    cents: order.token === 0 ? order.cents : 100 - order.cents,
    remaining: (order.size - order.matched) / UNITS,
    placedAt: order.restingSince,
  };
}

/** Until the run's end: heartbeat, quote, cancel what left the bands, top up what ran short. */
export async function runMaker(bot: BotTrader, crowd: Crowd): Promise<void> {
  let beatId = '';
  let beating = Promise.resolve();
  const beat = setInterval(() => {
    beating = beating.then(async () => void (beatId = await bot.heartbeat(beatId)));
  }, crowd.options.heartbeatMs);
  beatId = await bot.heartbeat('');
  try {
    while (Date.now() < crowd.stopAt) {
      await crowd.reconciler.orders(bot, crowd.stopAt);
      await bot.cancel(makerPlan(bot, crowd).cancel, crowd.stopAt);
      if (Date.now() >= crowd.stopAt) break;
      await bot.place(makerPlan(bot, crowd).place, crowd.stopAt);
      await sleep(crowd.options.quoteMs * (0.75 + crowd.random() / 2));
    }
  } finally {
    clearInterval(beat);
    await beating;
    await bot.cancelAll();
  }
}

/** The maker's cancels and new post-only orders over all markets, within what it has. */
export function makerPlan(bot: BotTrader, crowd: Crowd): { cancel: string[]; place: PlannedOrder[] } {
  const { belief } = bot;
  const { options } = crowd;
  const cancel: string[] = [];
  const place: PlannedOrder[] = [];
  let collateral = belief.available(COLLATERAL);
  for (const market of crowd.markets) {
    const tokens = market.tokens.map((t) => belief.available(t));
    const inventory = (belief.balance(market.tokens[0]) - belief.balance(market.tokens[1])) / UNITS;
    const skew = -options.skewCents * Math.max(-1, Math.min(1, inventory / options.maxInventory));
    const quotes = belief.openOf(market).map(quoteOf);
    const plan = planBands(options.bands, quotes, yesCents(crowd, market) + skew, options.minTokens);
    cancel.push(...plan.cancel);
    for (const quote of plan.place) {
      // A bid sells No held (or buys Yes); an ask sells Yes held (or buys No).
      const sellToken = quote.side === 'bid' ? 1 : 0;
      const units = quote.tokens * UNITS;
      const sellCents = quote.side === 'bid' ? 100 - quote.cents : quote.cents;
      if (tokens[sellToken]! >= units) {
        tokens[sellToken]! -= units;
        place.push({ market, token: sellToken, side: 'SELL', cents: sellCents, tokens: quote.tokens, ...gtcPostOnly });
        continue;
      }
      const buyToken = (1 - sellToken) as 0 | 1;
      const buyCents = 100 - sellCents;
      const cost = (units * buyCents) / 100;
      if (collateral < cost) continue;
      collateral -= cost;
      place.push({ market, token: buyToken, side: 'BUY', cents: buyCents, tokens: quote.tokens, ...gtcPostOnly });
    }
  }
  return { cancel, place };
}

const gtcPostOnly = { orderType: 'GTC', postOnly: true } as const;

/** Waits until the next arrival of a Poisson process of `rate` per second; false once the run is over. */
async function nextArrival(crowd: Crowd, rate: number, state: { next: number }): Promise<boolean> {
  state.next += (-Math.log(Math.max(Number.EPSILON, crowd.random())) / rate) * 1000;
  await sleep(state.next - Date.now());
  return Date.now() < crowd.stopAt;
}

const IN_FLIGHT = 4;

/** Until the run's end: FOK or FAK orders at Poisson times, up to four in flight. */
export async function runTaker(bot: BotTrader, crowd: Crowd): Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  const state = { next: Date.now() };
  while (await nextArrival(crowd, crowd.options.takerRate, state)) {
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const order = takerOrder(bot, crowd);
    if (order === undefined) continue;
    const sent: Promise<unknown> = bot.place([order], crowd.stopAt).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
}

/** A size in whole tokens: the minimum plus an exponential tail (mean 10 more). */
function takerTokens(crowd: Crowd): number {
  return crowd.options.minTokens + Math.floor(-Math.log(Math.max(Number.EPSILON, crowd.random())) * 10);
}

/** Sells tokens it holds a third of the time, else buys Yes or No through the spread. */
export function takerOrder(bot: BotTrader, crowd: Crowd): PlannedOrder | undefined {
  const market = crowd.markets[Math.floor(crowd.random() * crowd.markets.length)]!;
  const fair = yesCents(crowd, market);
  const tokens = takerTokens(crowd);
  const orderType = crowd.random() < 0.5 ? 'FOK' : 'FAK';
  const reach = 3 + Math.floor(crowd.random() * 6);
  const token = (crowd.random() < 0.5 ? 0 : 1) as 0 | 1;
  const tokenFair = token === 0 ? fair : 100 - fair;
  if (crowd.random() < 1 / 3 && bot.belief.available(market.tokens[token]) >= tokens * UNITS) {
    const cents = Math.max(1, Math.floor(tokenFair - reach));
    return { market, token, side: 'SELL', cents, tokens, orderType };
  }
  const cents = Math.min(99, Math.ceil(tokenFair + reach));
  if (bot.belief.available(COLLATERAL) < (tokens * UNITS * cents) / 100) return undefined;
  return { market, token, side: 'BUY', cents, tokens, orderType };
}

const NOISE_RESTING = 6;

/** Until the run's end: small GTC buys of one outcome near its fair value, each cancelled after a while. */
export async function runNoise(bot: BotTrader, crowd: Crowd, token: 0 | 1): Promise<void> {
  const expiry = new Map<string, number>();
  const state = { next: Date.now() };
  while (await nextArrival(crowd, crowd.options.noiseRate, state)) {
    const now = Date.now();
    const due = [...bot.belief.open.keys()].filter((id) => (expiry.get(id) ?? 0) <= now);
    await bot.cancel(due, crowd.stopAt);
    if (bot.belief.open.size >= NOISE_RESTING) continue;
    const market = crowd.markets[Math.floor(crowd.random() * crowd.markets.length)]!;
    const fair = token === 0 ? yesCents(crowd, market) : 100 - yesCents(crowd, market);
    const cents = Math.min(99, Math.max(1, Math.round(fair - 4 + crowd.random() * 6)));
    const tokens = crowd.options.minTokens + Math.floor(crowd.random() * 5);
    if (bot.belief.available(COLLATERAL) < (tokens * UNITS * cents) / 100) continue;
    const placed = await bot.place([{ market, token, side: 'BUY', cents, tokens, orderType: 'GTC' }], crowd.stopAt);
    const lifetime = -Math.log(Math.max(Number.EPSILON, crowd.random())) * 3000;
    for (const order of placed) expiry.set(order.id, Date.now() + lifetime);
  }
  await bot.cancel([...bot.belief.open.keys()]);
}

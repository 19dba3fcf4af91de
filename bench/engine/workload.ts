// The engine bench's mixed workload, generated up front so generation is not measured:
// limit orders around a random-walking mid, about a third crossing, some FAK/FOK takers, and
// cancels of earlier resting orders (chosen at run time from the ids the engine handed out).

import { OrderType, Side, type PlaceOrder, type TokenIndex } from '@pmx/matching';

export const OP_PLACE = 0;
export const OP_CANCEL = 1;

export interface Workload {
  count: number;
  op: Uint8Array;
  market: Uint16Array;
  token: Uint8Array;
  side: Uint8Array;
  orderType: Uint8Array;
  price: Uint16Array;
  size: Float64Array;
  owner: Uint32Array;
  /** For cancels: which earlier resting order to cancel (index into the run's ring of ids). */
  pick: Uint32Array;
  orders: number;
  cancels: number;
}

/** Small deterministic PRNG (mulberry32), so every run sees the same stream. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TICKS = 100; // tick 0.01
export const LOT = 10_000;

export function mixedWorkload(orders: number, markets: number, seed = 42): Workload {
  const capacity = Math.ceil(orders * 1.6);
  const w: Workload = {
    count: 0,
    op: new Uint8Array(capacity),
    market: new Uint16Array(capacity),
    token: new Uint8Array(capacity),
    side: new Uint8Array(capacity),
    orderType: new Uint8Array(capacity),
    price: new Uint16Array(capacity),
    size: new Float64Array(capacity),
    owner: new Uint32Array(capacity),
    pick: new Uint32Array(capacity),
    orders: 0,
    cancels: 0,
  };
  const random = prng(seed);
  const mids = new Array<number>(markets).fill(50);
  let i = 0;
  while (w.orders < orders) {
    const market = Math.floor(random() * markets);
    if (random() < 0.02) mids[market] = Math.min(80, Math.max(20, mids[market]! + (random() < 0.5 ? -1 : 1)));
    const mid = mids[market]!;
    const token = (random() < 0.5 ? 0 : 1) as TokenIndex;
    const side = random() < 0.5 ? Side.BUY : Side.SELL;
    const r = random();
    let price: number; // in the first token's ticks, converted below
    let orderType: number = OrderType.GTC;
    const buyFirst = (token === 0) === (side === Side.BUY);
    if (r < 0.28) {
      price = buyFirst ? mid + 1 + Math.floor(random() * 3) : mid - 1 - Math.floor(random() * 3); // crossing limit
    } else if (r < 0.36) {
      orderType = random() < 0.5 ? OrderType.FAK : OrderType.FOK;
      price = buyFirst ? mid + 6 : mid - 6;
    } else {
      price = buyFirst ? mid - Math.floor(random() * 10) : mid + Math.floor(random() * 10); // passive
    }
    price = Math.min(TICKS - 1, Math.max(1, price));
    w.op[i] = OP_PLACE;
    w.market[i] = market;
    w.token[i] = token;
    w.side[i] = side;
    w.orderType[i] = orderType;
    w.price[i] = token === 0 ? price : TICKS - price;
    w.size[i] = (5 + Math.floor(random() * 200)) * LOT;
    w.owner[i] = 1 + Math.floor(random() * 500);
    i++;
    w.orders++;
    if (random() < 0.34) {
      w.op[i] = OP_CANCEL;
      w.pick[i] = Math.floor(random() * 4096);
      i++;
      w.cancels++;
    }
  }
  w.count = i;
  return w;
}

/** Loads placing operation `i` into a reused command object (no allocation per order). */
export function loadOrder(order: PlaceOrder, w: Workload, i: number): PlaceOrder {
  order.market = w.market[i]!;
  order.token = w.token[i] as TokenIndex;
  order.side = w.side[i] as Side;
  order.orderType = w.orderType[i] as OrderType;
  order.price = w.price[i]!;
  order.size = w.size[i]!;
  order.owner = w.owner[i]!;
  return order;
}

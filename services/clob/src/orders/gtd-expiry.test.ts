// GTD orders are expired at their time: the timer asks the order's shard when the earliest open
// GTD is due, skips orders that closed first, and keeps its heap bounded by the open orders.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShardEvent } from '@pmx/events';
import { OrderType, Side } from '@pmx/matching';
import { GtdExpiry } from './gtd-expiry.ts';
import { OpenOrders } from './open-orders.ts';

const accepted = (orderId: string, market: string, expiresAt: number): ShardEvent => ({
  type: 'accepted',
  seq: 0,
  at: 0,
  orderId,
  market,
  token: 0,
  side: Side.BUY,
  orderType: expiresAt > 0 ? OrderType.GTD : OrderType.GTC,
  price: 40,
  size: 10,
  owner: '0xa',
  ownerKey: 'key',
  builder: '',
  signedAt: 0,
  postOnly: false,
  expiresAt,
});
const cancelled = (orderId: string, market: string): ShardEvent => ({
  type: 'cancelled',
  seq: 0,
  at: 0,
  orderId,
  market,
  owner: '0xa',
  remaining: 10,
  reason: 'user',
});

describe('GtdExpiry', () => {
  let orders: OpenOrders;
  let asked: string[];
  let expiry: GtdExpiry;

  /** Whether the shard follows the request (it expires what its own clock says is due). */
  let shardExpires: boolean;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    orders = new OpenOrders();
    asked = [];
    shardExpires = true;
    expiry = new GtdExpiry(orders, (market) => {
      asked.push(market);
      if (!shardExpires) return;
      const due = [...orders.all()].filter((o) => o.market === market && o.expiresAt > 0 && o.expiresAt <= Date.now());
      for (const o of due)
        orders.apply({
          type: 'expired',
          seq: 0,
          at: Date.now(),
          orderId: o.orderId,
          market,
          owner: '0xa',
          remaining: 10,
        });
    });
    orders.onGtd((id, at) => expiry.track(id, at));
  });

  afterEach(() => {
    expiry.close();
    vi.useRealTimers();
  });

  it("asks each due order's market at the order's time, not before, once per market", () => {
    orders.apply(accepted('a', 'm1', 1_002_000));
    orders.apply(accepted('b', 'm2', 1_001_000));
    orders.apply(accepted('c', 'm2', 1_001_000));
    orders.apply(accepted('gtc', 'm3', 0));
    vi.advanceTimersByTime(999);
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual(['m2']);
    vi.advanceTimersByTime(999);
    expect(asked).toEqual(['m2']);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual(['m2', 'm1']);
    vi.advanceTimersByTime(60_000);
    expect(asked).toEqual(['m2', 'm1']);
  });

  it('an earlier GTD placed later moves the timer forward; one that closed first asks nothing', () => {
    orders.apply(accepted('late', 'm1', 1_010_000));
    orders.apply(accepted('early', 'm2', 1_000_500));
    orders.apply(accepted('gone', 'm3', 1_000_200));
    orders.apply(cancelled('gone', 'm3'));
    vi.advanceTimersByTime(500);
    expect(asked).toEqual(['m2']);
    vi.advanceTimersByTime(9_500);
    expect(asked).toEqual(['m2', 'm1']);
  });

  it('placing and cancelling far-dated GTDs does not grow it past twice the open orders', () => {
    for (let i = 0; i < 10_000; i++) {
      orders.apply(accepted(`o${i}`, 'm1', 2_000_000_000));
      orders.apply(cancelled(`o${i}`, 'm1'));
    }
    orders.apply(accepted('kept', 'm1', 1_000_100));
    expect(expiry.pending).toBeLessThanOrEqual(1025);
    vi.advanceTimersByTime(100);
    expect(asked).toEqual(['m1']);
  });

  it('asks again a second later when the shard did not expire the order (its clock stepped back)', () => {
    shardExpires = false;
    orders.apply(accepted('a', 'm1', 1_000_100));
    vi.advanceTimersByTime(100);
    expect(asked).toEqual(['m1']);
    shardExpires = true;
    vi.advanceTimersByTime(1_000);
    expect(asked).toEqual(['m1', 'm1']);
    expect(orders.get('a')).toBeUndefined();
    vi.advanceTimersByTime(10_000);
    expect(asked).toEqual(['m1', 'm1']);
  });

  it('a wall clock stepped forward past an expiry is noticed within a second', () => {
    orders.apply(accepted('a', 'm1', 1_600_000)); // ten minutes out
    vi.setSystemTime(1_700_000); // the clock steps; timers run on their own time
    vi.advanceTimersByTime(1_000);
    expect(asked).toEqual(['m1']);
  });

  it('also tracks GTDs restored after a restart', () => {
    orders.restore({
      orderId: 'r',
      ownerKey: 'key',
      owner: '0xa',
      market: 'm9',
      token: 0,
      assetId: 't',
      side: Side.BUY,
      orderType: OrderType.GTD,
      price: 40,
      size: 10,
      matched: 0,
      expiresAt: 1_000_300,
      acceptedAt: 0,
      tradeIds: [],
    });
    vi.advanceTimersByTime(300);
    expect(asked).toEqual(['m9']);
  });
});

describe('GtdExpiry with a GTD further out than a timer can wait (2^31 ms)', () => {
  it('waits a second at a time instead of spinning', async () => {
    const orders = new OpenOrders();
    const expiry = new GtdExpiry(orders, () => {});
    orders.onGtd((id, at) => expiry.track(id, at));
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      orders.apply(accepted('month', 'm1', Date.now() + 30 * 86_400_000));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Node fires a timer of more than 2^31 ms after 1 ms: re-armed each time, ≈ 300 here.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      timers.mockRestore();
      expiry.close();
    }
  });
});

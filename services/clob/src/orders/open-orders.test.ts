// The front end's open orders keep the last few closed ones, oldest dropped first, with how they ended.
import { describe, expect, it, vi } from 'vitest';
import type { ShardEvent } from '@pmx/events';
import { MatchKind, OrderType, Side } from '@pmx/matching';
import { OpenOrders } from './open-orders.ts';
import { seqCursorPage } from '../routes/token-param.ts';

const accepted = (orderId: string, size = 10): ShardEvent => ({
  type: 'accepted',
  seq: 0,
  at: 1,
  orderId,
  market: 'm',
  token: 0,
  side: Side.BUY,
  orderType: OrderType.GTC,
  price: 40,
  size,
  owner: '0xa',
  ownerKey: 'key',
  builder: '',
  signedAt: 0,
  postOnly: false,
  expiresAt: 0,
});
const cancelled = (orderId: string, reason: 'user' | 'unfilled'): ShardEvent => ({
  type: 'cancelled',
  seq: 0,
  at: 2,
  orderId,
  market: 'm',
  owner: '0xa',
  remaining: 10,
  reason,
});

describe('OpenOrders: recently closed', () => {
  it('names how each order ended and forgets the oldest past its bound', () => {
    const orders = new OpenOrders(2);
    for (const id of ['a', 'b', 'c', 'd']) orders.apply(accepted(id));
    orders.apply({
      type: 'trade',
      seq: 0,
      at: 2,
      tradeId: 't1',
      market: 'm',
      takerOrderId: 'x',
      takerOwner: '0xb',
      takerToken: 0,
      takerSide: Side.SELL,
      size: 10,
      fills: [
        {
          makerOrderId: 'a',
          makerOwner: '0xa',
          makerToken: 0,
          makerSide: Side.BUY,
          size: 10,
          makerPrice: 40,
          takerPrice: 40,
          kind: MatchKind.TRANSFER,
        },
      ],
    });
    orders.apply(cancelled('b', 'user'));
    expect(orders.get('a')).toBeUndefined();
    expect(orders.recentlyClosed('a')).toMatchObject({ status: 'MATCHED', matched: 10, tradeIds: ['t1'] });
    expect(orders.recentlyClosed('b')).toMatchObject({ status: 'CANCELED', matched: 0 });
    orders.apply(cancelled('c', 'unfilled'));
    expect(orders.recentlyClosed('a')).toBeUndefined();
    expect(orders.recentlyClosed('c')?.status).toBe('UNMATCHED');
    orders.apply({ type: 'expired', seq: 0, at: 3, orderId: 'd', market: 'm', owner: '0xa', remaining: 10 });
    expect(orders.recentlyClosed('d')?.status).toBe('CANCELED');
    expect([orders.recentlyClosed('b'), orders.size]).toEqual([undefined, 0]);
  });
});

describe('OpenOrders: pages of GET /data/orders', () => {
  const page = (orders: OpenOrders, cursor: string | null) => seqCursorPage(orders.ofOwner('key'), cursor, 500);

  it('a page boundary does not move when orders before it close', () => {
    const orders = new OpenOrders();
    const ids = Array.from({ length: 620 }, (_, i) => `o${i}`);
    for (const id of ids) orders.apply(accepted(id));
    const first = page(orders, 'MA==');
    expect(first.data.map((o) => o.orderId)).toEqual(ids.slice(0, 500));
    expect(first.next_cursor).not.toBe('LTE=');
    // A market maker's quotes on the first page fill or are cancelled while it reads on.
    for (const id of ids.slice(0, 20)) orders.apply(cancelled(id, 'user'));
    const second = page(orders, first.next_cursor);
    expect(second.data.map((o) => o.orderId)).toEqual(ids.slice(500));
    expect(second).toMatchObject({ next_cursor: 'LTE=', count: 120, limit: 500 });
    expect(page(orders, 'LTE=')).toMatchObject({ data: [], next_cursor: 'LTE=' });
  });

  it('a cursor kept from before a restart starts the list over rather than skipping it', () => {
    vi.useFakeTimers({ now: 1_795_000_000_000 });
    try {
      const before = new OpenOrders();
      for (let i = 0; i < 700; i++) before.apply(accepted(`o${i}`));
      const kept = page(before, null).next_cursor;
      vi.setSystemTime(1_795_000_060_000); // a restart a minute later: the orders come back
      const after = new OpenOrders();
      for (let i = 0; i < 700; i++) after.apply(accepted(`o${i}`));
      expect(page(after, kept).data.map((o) => o.orderId)).toEqual(Array.from({ length: 500 }, (_, i) => `o${i}`));
    } finally {
      vi.useRealTimers();
    }
  });

  it('an exactly full last page ends the list, and a cursor that is not a number is refused', () => {
    const orders = new OpenOrders();
    for (let i = 0; i < 500; i++) orders.apply(accepted(`o${i}`));
    expect(page(orders, null)).toMatchObject({ count: 500, next_cursor: 'LTE=' });
    expect(() => page(orders, Buffer.from('x1').toString('base64'))).toThrow('invalid next_cursor');
  });
});

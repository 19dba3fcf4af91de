// The front end's open orders keep the last few closed ones, oldest dropped first, with how they ended.
import { describe, expect, it } from 'vitest';
import type { ShardEvent } from '@pmx/events';
import { MatchKind, OrderType, Side } from '@pmx/matching';
import { OpenOrders } from './open-orders.ts';

const accepted = (orderId: string, size = 10): ShardEvent => ({
  type: 'accepted', seq: 0, at: 1, orderId, market: 'm', token: 0, side: Side.BUY, orderType: OrderType.GTC,
  price: 40, size, owner: '0xa', ownerKey: 'key', builder: '', signedAt: 0, postOnly: false, expiresAt: 0,
});
const cancelled = (orderId: string, reason: 'user' | 'unfilled'): ShardEvent => ({ type: 'cancelled', seq: 0, at: 2, orderId, market: 'm', owner: '0xa', remaining: 10, reason });

describe('OpenOrders: recently closed', () => {
  it('names how each order ended and forgets the oldest past its bound', () => {
    const orders = new OpenOrders(2);
    for (const id of ['a', 'b', 'c', 'd']) orders.apply(accepted(id));
    orders.apply({ type: 'trade', seq: 0, at: 2, tradeId: 't1', market: 'm', takerOrderId: 'x', takerOwner: '0xb', takerToken: 0, takerSide: Side.SELL, size: 10, fills: [{ makerOrderId: 'a', makerOwner: '0xa', makerToken: 0, makerSide: Side.BUY, size: 10, makerPrice: 40, takerPrice: 40, kind: MatchKind.TRANSFER }] });
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

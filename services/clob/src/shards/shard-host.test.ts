import { describe, expect, it } from 'vitest';
import { OrderType, Side } from '@pmx/matching';
import { ShardHost } from './shard-host.ts';
import { TOKEN, market, place } from './shard-fixtures.ts';

describe('ShardHost', () => {
  it('speaks in external ids and addresses, and reports the trade ids a taker made', () => {
    const host = new ShardHost(3);
    host.handle({ now: 1, commands: [market, place('0xa', 'alice', { side: Side.SELL, price: 48 })] });
    const reply = host.handle({ now: 2, commands: [place('0xb', 'bob', { price: 50 })] });
    expect(reply.results).toEqual([
      {
        type: 'place',
        ok: true,
        status: 'matched',
        filled: 10 * TOKEN,
        notional: 4.8 * TOKEN,
        resting: 0,
        tradeIds: ['3-3'],
      },
    ]);
    expect(reply.events.map((e) => e.type)).toEqual(['accepted', 'trade']);
    expect(reply.events[1]).toMatchObject({
      tradeId: '3-3',
      takerOrderId: '0xb',
      takerOwner: 'bob',
      market: '0xc1',
      fills: [{ makerOrderId: '0xa', makerOwner: 'alice', makerPrice: 48 }],
    });
    expect(reply.books).toEqual([{ market: '0xc1', bids: [], asks: [], lastTrade: 48 }]);
  });

  it('refuses an order id that is already resting, and forgets ids once orders close', () => {
    const host = new ShardHost(0);
    host.handle({ now: 1, commands: [market, place('0xa', 'alice')] });
    expect(host.handle({ now: 2, commands: [place('0xa', 'alice')] }).results[0]).toEqual({
      type: 'place',
      ok: false,
      reason: 'duplicate',
    });
    expect(host.handle({ now: 3, commands: [{ type: 'cancel', orderId: '0xa', owner: 'alice' }] }).results[0]).toEqual({
      type: 'cancel',
      ok: true,
      remaining: 10 * TOKEN,
    });
    expect(host.handle({ now: 4, commands: [{ type: 'cancel', orderId: '0xa', owner: 'alice' }] }).results[0]).toEqual({
      type: 'cancel',
      ok: false,
      remaining: 0,
    });
  });

  it("does not cancel another owner's order", () => {
    const host = new ShardHost(0);
    host.handle({ now: 1, commands: [market, place('0xa', 'alice')] });
    expect(
      host.handle({ now: 2, commands: [{ type: 'cancel', orderId: '0xa', owner: 'mallory' }] }).results[0],
    ).toEqual({ type: 'cancel', ok: false, remaining: 0 });
  });

  it('cancels all of an owner in a market and names them', () => {
    const host = new ShardHost(0);
    host.handle({
      now: 1,
      commands: [
        market,
        place('0xa', 'alice'),
        place('0xb', 'alice', { price: 40 }),
        place('0xc', 'bob', { price: 41 }),
      ],
    });
    const reply = host.handle({ now: 2, commands: [{ type: 'cancelOwner', owner: 'alice', market: '0xc1' }] });
    expect(reply.results[0]).toEqual({ type: 'cancelOwner', cancelled: ['0xa', '0xb'] });
    expect(reply.books[0]!.bids).toEqual([[41, 10 * TOKEN]]);
  });

  it('answers a command for an unknown market with an error result, not an exception', () => {
    const host = new ShardHost(0);
    const reply = host.handle({ now: 1, commands: [place('0xa', 'alice')] });
    expect(reply.results[0]).toEqual({ type: 'error', message: 'market 0xc1 is not on shard 0' });
  });

  it('marks an error that came after the engine had acted (its events still go out) as partial', () => {
    const host = new ShardHost(0);
    host.handle({ now: 1, commands: [market, place('0xa', 'alice')] });
    const engine = (host as unknown as { engine: { cancel: (...args: unknown[]) => unknown } }).engine;
    const cancel = engine.cancel.bind(engine);
    engine.cancel = (...args: unknown[]) => {
      cancel(...args);
      throw new Error('boom after cancelling');
    };
    const reply = host.handle({ now: 2, commands: [{ type: 'cancel', orderId: '0xa', owner: 'alice' }] });
    expect(reply.results[0]).toEqual({ type: 'error', message: 'boom after cancelling', partial: true });
    expect(reply.events.map((e) => e.type)).toEqual(['cancelled']);
  });
});

describe('ShardHost restore', () => {
  it('rebuilds books from open orders in sequence, keeps their priority, and numbers events on from the ledger', () => {
    const host = new ShardHost(1);
    host.handle({ now: 1, commands: [market] });
    const restored = host.handle({
      now: 2,
      commands: [
        {
          type: 'restore',
          seq: 41,
          lastTrades: [{ market: '0xc1', ticks: 47 }],
          orders: [
            {
              orderId: '0xold',
              owner: 'alice',
              market: '0xc1',
              token: 0,
              side: Side.SELL,
              orderType: OrderType.GTC,
              price: 50,
              size: 10 * TOKEN,
              remaining: 4 * TOKEN,
              expiresAt: 0,
              acceptedAt: 1,
            },
            {
              orderId: '0xnew',
              owner: 'bob',
              market: '0xc1',
              token: 1,
              side: Side.BUY,
              orderType: OrderType.GTC,
              price: 50,
              size: 6 * TOKEN,
              remaining: 6 * TOKEN,
              expiresAt: 0,
              acceptedAt: 2,
            },
          ],
        },
      ],
    });
    expect(restored.results[0]).toMatchObject({ type: 'restore', orders: 2 });
    expect(restored.books).toEqual([{ market: '0xc1', bids: [], asks: [[50, 10 * TOKEN]], lastTrade: 47 }]);
    const taker = host.handle({ now: 3, commands: [place('0xt', 'carol', { price: 50, size: 5 * TOKEN })] });
    expect(taker.events.map((e) => e.seq)).toEqual([42, 43]);
    const trade = taker.events[1] as Extract<(typeof taker.events)[number], { type: 'trade' }>;
    expect(trade.fills.map((f) => [f.makerOrderId, f.size])).toEqual([
      ['0xold', 4 * TOKEN],
      ['0xnew', TOKEN],
    ]);
    expect(host.handle({ now: 4, commands: [{ type: 'cancel', orderId: '0xnew', owner: 'bob' }] }).results[0]).toEqual({
      type: 'cancel',
      ok: true,
      remaining: 5 * TOKEN,
    });
  });

  it('a restored shard has the same state hash as the one it replaces', () => {
    const live = new ShardHost(0);
    live.handle({
      now: 1,
      commands: [
        market,
        place('0xa', 'alice', { price: 40 }),
        place('0xb', 'bob', { price: 40, size: 7 * TOKEN }),
        place('0xc', 'carol', { side: Side.SELL, price: 60 }),
      ],
    });
    const status = live.handle({ now: 2, commands: [{ type: 'status' }] }).results[0] as {
      seq: number;
      stateHash: string;
    };
    const restored = new ShardHost(0);
    restored.handle({ now: 3, commands: [market] });
    restored.handle({
      now: 4,
      commands: [
        {
          type: 'restore',
          seq: status.seq,
          lastTrades: [],
          orders: [
            {
              orderId: '0xa',
              owner: 'alice',
              market: '0xc1',
              token: 0,
              side: Side.BUY,
              orderType: OrderType.GTC,
              price: 40,
              size: 10 * TOKEN,
              remaining: 10 * TOKEN,
              expiresAt: 0,
              acceptedAt: 1,
            },
            {
              orderId: '0xb',
              owner: 'bob',
              market: '0xc1',
              token: 0,
              side: Side.BUY,
              orderType: OrderType.GTC,
              price: 40,
              size: 7 * TOKEN,
              remaining: 7 * TOKEN,
              expiresAt: 0,
              acceptedAt: 1,
            },
            {
              orderId: '0xc',
              owner: 'carol',
              market: '0xc1',
              token: 0,
              side: Side.SELL,
              orderType: OrderType.GTC,
              price: 60,
              size: 10 * TOKEN,
              remaining: 10 * TOKEN,
              expiresAt: 0,
              acceptedAt: 1,
            },
          ],
        },
      ],
    });
    expect(restored.handle({ now: 5, commands: [{ type: 'status' }] }).results[0]).toEqual(status);
    restored.handle({ now: 6, commands: [{ type: 'cancel', orderId: '0xb', owner: 'bob' }] });
    expect(
      (restored.handle({ now: 7, commands: [{ type: 'status' }] }).results[0] as { stateHash: string }).stateHash,
    ).not.toBe(status.stateHash);
  });
});

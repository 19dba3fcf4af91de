// A market's life in its shard: lifecycle steps and custody movements sequenced with its orders,
// each an event in the one numbering, refused (with the market's state) where they do not apply.
import { describe, expect, it } from 'vitest';
import { Side } from '@pmx/matching';
import type { ShardCommand, ShardEvent } from '@pmx/events';
import { ShardHost } from './shard-host.ts';
import { TOKEN, market, place } from './shard-fixtures.ts';

const step = (name: 'pause' | 'resume' | 'close' | 'resolve', payouts?: [number, number]): ShardCommand => ({
  type: 'lifecycle',
  market: '0xc1',
  step: name,
  ...(payouts === undefined ? {} : { payouts }),
});

const custody = (op: 'split' | 'merge' | 'redeem', tokens: [number, number], id = `c-${op}`): ShardCommand => ({
  type: 'custody',
  id,
  op,
  market: '0xc1',
  owner: 'alice',
  tokens,
});

function opened(): ShardHost {
  const host = new ShardHost(0);
  host.handle({ now: 1, commands: [market] });
  return host;
}

const seqs = (events: ShardEvent[]) => events.map((e) => e.seq);

describe('ShardHost lifecycle', () => {
  it('a paused market refuses new orders, keeps and cancels resting ones, and takes orders again once resumed', () => {
    const host = opened();
    host.handle({ now: 2, commands: [place('0xa', 'alice'), place('0xb', 'alice', { price: 40 })] });
    const paused = host.handle({ now: 3, commands: [step('pause'), place('0xc', 'bob')] });
    expect(paused.results).toEqual([
      { type: 'lifecycle', ok: true, state: 'paused', cancelled: 0 },
      { type: 'place', ok: false, reason: 'market-paused' },
    ]);
    expect(paused.events).toEqual([
      { type: 'lifecycle', seq: 3, at: 3, market: '0xc1', state: 'paused', payouts: null },
    ]);
    const cancelled = host.handle({ now: 4, commands: [{ type: 'cancel', orderId: '0xa', owner: 'alice' }] });
    expect(cancelled.results).toEqual([{ type: 'cancel', ok: true, remaining: 10 * TOKEN }]);
    expect(host.handle({ now: 5, commands: [step('pause')] }).results).toEqual([
      { type: 'lifecycle', ok: false, state: 'paused' },
    ]);
    const resumed = host.handle({
      now: 6,
      commands: [step('resume'), place('0xc', 'bob', { side: Side.SELL, price: 40 })],
    });
    expect(resumed.results[1]).toMatchObject({ type: 'place', ok: true, status: 'matched' });
    expect(resumed.events.map((e) => e.type)).toEqual(['lifecycle', 'accepted', 'trade']);
  });

  it('a close is its event, then every resting order cancelled (reason market-closed) in one sequence; later orders are refused', () => {
    const host = opened();
    host.handle({ now: 2, commands: [place('0xa', 'alice'), place('0xb', 'bob', { side: Side.SELL, price: 70 })] });
    const closed = host.handle({ now: 3, commands: [step('close'), place('0xc', 'carol')] });
    expect(closed.results).toEqual([
      { type: 'lifecycle', ok: true, state: 'closed', cancelled: 2 },
      { type: 'place', ok: false, reason: 'market-closed' },
    ]);
    expect(closed.events).toEqual([
      { type: 'lifecycle', seq: 3, at: 3, market: '0xc1', state: 'closed', payouts: null },
      expect.objectContaining({ type: 'cancelled', seq: 4, orderId: '0xa', reason: 'market-closed' }),
      expect.objectContaining({ type: 'cancelled', seq: 5, orderId: '0xb', reason: 'market-closed' }),
    ]);
    expect(closed.books).toEqual([{ market: '0xc1', bids: [], asks: [], lastTrade: 0 }]);
    expect(host.handle({ now: 4, commands: [step('resume')] }).results[0]).toEqual({
      type: 'lifecycle',
      ok: false,
      state: 'closed',
    });
  });

  it('resolving an open market closes it first, then resolves it with its payouts; once resolved no step applies', () => {
    const host = opened();
    host.handle({ now: 2, commands: [place('0xa', 'alice')] });
    const resolved = host.handle({ now: 3, commands: [step('resolve', [0, TOKEN])] });
    expect(resolved.results).toEqual([{ type: 'lifecycle', ok: true, state: 'resolved', cancelled: 1 }]);
    expect(resolved.events.map((e) => [e.type, 'state' in e ? e.state : e.type])).toEqual([
      ['lifecycle', 'closed'],
      ['cancelled', 'cancelled'],
      ['lifecycle', 'resolved'],
    ]);
    expect(seqs(resolved.events)).toEqual([2, 3, 4]);
    expect(resolved.events[2]).toMatchObject({ payouts: [0, TOKEN] });
    for (const name of ['pause', 'resume', 'close'] as const)
      expect(host.handle({ now: 4, commands: [step(name)] }).results[0]).toMatchObject({
        ok: false,
        state: 'resolved',
      });
    expect(host.handle({ now: 4, commands: [step('resolve', [TOKEN, 0])] }).results[0]).toMatchObject({
      ok: false,
      state: 'resolved',
    });
    // A resolution without a binary market's payouts is a bug of the caller: an error, nothing emitted.
    const other = opened();
    expect(other.handle({ now: 2, commands: [step('resolve', [1, 2])] })).toMatchObject({
      results: [{ type: 'error' }],
      events: [],
    });
  });

  it('answers a step or a movement in a market it does not have with state unknown', () => {
    const host = new ShardHost(0);
    expect(host.handle({ now: 1, commands: [step('pause'), custody('split', [1, 1])] }).results).toEqual([
      { type: 'lifecycle', ok: false, state: 'unknown' },
      { type: 'custody', ok: false, state: 'unknown' },
    ]);
  });
});

describe('ShardHost custody', () => {
  it('splits while open or paused, merges in any state, redeems only once resolved, each an event in sequence', () => {
    const host = opened();
    const split = host.handle({
      now: 2,
      commands: [custody('split', [7, 7]), step('pause'), custody('split', [3, 3], 'c2')],
    });
    expect(split.results).toEqual([
      { type: 'custody', ok: true, collateral: 7 },
      { type: 'lifecycle', ok: true, state: 'paused', cancelled: 0 },
      { type: 'custody', ok: true, collateral: 3 },
    ]);
    expect(split.events[0]).toEqual({
      type: 'custody',
      seq: 1,
      at: 2,
      id: 'c-split',
      market: '0xc1',
      owner: 'alice',
      op: 'split',
      tokens: [7, 7],
      collateral: 7,
      payouts: null,
    });
    expect(host.handle({ now: 3, commands: [custody('redeem', [1, 1])] }).results).toEqual([
      { type: 'custody', ok: false, state: 'paused' },
    ]);
    host.handle({ now: 4, commands: [step('close')] });
    expect(host.handle({ now: 5, commands: [custody('split', [1, 1])] }).results).toEqual([
      { type: 'custody', ok: false, state: 'closed' },
    ]);
    expect(host.handle({ now: 5, commands: [custody('merge', [2, 2])] }).results).toEqual([
      { type: 'custody', ok: true, collateral: 2 },
    ]);
    host.handle({ now: 6, commands: [step('resolve', [TOKEN / 2, TOKEN / 2])] });
    // 3 and 4 base units at 0.5: 3.5, rounded down once.
    const redeemed = host.handle({ now: 7, commands: [custody('redeem', [3, 4]), custody('merge', [1, 1], 'c3')] });
    expect(redeemed.results).toEqual([
      { type: 'custody', ok: true, collateral: 3 },
      { type: 'custody', ok: true, collateral: 1 },
    ]);
    expect(redeemed.events[0]).toMatchObject({
      op: 'redeem',
      tokens: [3, 4],
      collateral: 3,
      payouts: [TOKEN / 2, TOKEN / 2],
    });
  });

  it('takes a split or merge of unequal amounts, or of nothing, for a bug: an error, nothing emitted', () => {
    const host = opened();
    const reply = host.handle({ now: 2, commands: [custody('split', [2, 3]), custody('merge', [0, 0])] });
    expect(reply.results.map((r) => r.type)).toEqual(['error', 'error']);
    expect(reply.events).toEqual([]);
  });
});

describe('ShardHost restore of market states', () => {
  it('takes each market’s state from the ledger, and hashes equal to the shard it replaces', () => {
    const live = opened();
    live.handle({ now: 2, commands: [step('resolve', [TOKEN, 0])] });
    const status = live.handle({ now: 3, commands: [{ type: 'status' }] }).results[0];
    const restored = opened();
    const before = restored.handle({ now: 3, commands: [{ type: 'status' }] }).results[0];
    restored.handle({
      now: 4,
      commands: [
        {
          type: 'restore',
          seq: 2,
          orders: [],
          lastTrades: [],
          markets: [{ market: '0xc1', state: 'resolved', payouts: [TOKEN, 0] }],
        },
      ],
    });
    expect(restored.handle({ now: 5, commands: [{ type: 'status' }] }).results[0]).toEqual(status);
    expect(before).not.toEqual(status);
    expect(restored.handle({ now: 6, commands: [place('0xa', 'alice'), custody('redeem', [5, 0])] }).results).toEqual([
      { type: 'place', ok: false, reason: 'market-closed' },
      { type: 'custody', ok: true, collateral: 5 },
    ]);
  });
});

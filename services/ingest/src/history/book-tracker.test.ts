// The tracker rebuilds each book's best bid and ask from events alone; the engine is the oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderType, Side, type TokenIndex } from '@pmx/matching';
import { EngineShard } from '../testing/engine-shard.ts';
import { testMarket, TOKEN } from '../testing/ledger-fixtures.ts';
import { BookTracker } from './book-tracker.ts';

const market = testMarket('tracker');

function setup(): { shard: EngineShard; tracker: BookTracker } {
  const shard = new EngineShard(0);
  shard.addMarket(market);
  for (const who of ['a', 'b', 'c']) {
    shard.risk.credit(who, 'collateral', 1e6 * TOKEN);
    shard.risk.credit(who, market.tokens[0], 1e6 * TOKEN);
    shard.risk.credit(who, market.tokens[1], 1e6 * TOKEN);
  }
  return { shard, tracker: new BookTracker(() => market.ticksPerUnit) };
}

describe('BookTracker', () => {
  it('reports a midpoint change only when bid + ask moves, both sides present', () => {
    const { shard, tracker } = setup();
    const place = (id: string, token: TokenIndex, side: Side, price: number) =>
      shard.batch(1, (ops) => ops.place({ id, owner: id.slice(0, 1), market, token, side, price, size: 10 * TOKEN }))!;
    expect(tracker.apply(place('a1', 0, Side.BUY, 40).events)).toEqual([]); // one side only
    expect(tracker.apply(place('b1', 1, Side.BUY, 50).events)).toEqual([
      { market: market.conditionId, bid: 40, ask: 50 },
    ]); // NO bid 0.50 = YES ask 0.50
    expect(tracker.apply(place('a2', 0, Side.BUY, 41).events)).toEqual([
      { market: market.conditionId, bid: 41, ask: 50 },
    ]);
    expect(tracker.apply(place('c1', 0, Side.SELL, 60).events)).toEqual([]); // behind the best ask
  });

  it('agrees with the engine after random order flow', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            who: fc.constantFrom('a', 'b', 'c'),
            token: fc.constantFrom<TokenIndex>(0, 1),
            side: fc.constantFrom(Side.BUY, Side.SELL),
            type: fc.constantFrom(OrderType.GTC, OrderType.GTC, OrderType.FAK, OrderType.GTD),
            price: fc.integer({ min: 30, max: 70 }),
            lots: fc.integer({ min: 1, max: 50 }),
            cancel: fc.integer({ min: 0, max: 5 }),
          }),
          { minLength: 20, maxLength: 120 },
        ),
        (steps) => {
          const { shard, tracker } = setup();
          const live: string[] = [];
          steps.forEach((step, i) => {
            const now = 1000 + i * 10;
            const job = shard.batch(now, (ops) => {
              if (i % 17 === 0) ops.expire();
              const id = `o${i}`;
              const result = ops.place({
                id,
                owner: step.who,
                market,
                token: step.token,
                side: step.side,
                price: step.price,
                size: step.lots * 10_000,
                type: step.type,
                expiresAt: step.type === OrderType.GTD ? now + 35 : undefined,
              });
              if (result.ok && result.status === 'live') live.push(id);
              if (step.cancel === 0 && live.length > 0) {
                const victim = live.splice(i % live.length, 1)[0]!;
                if (shard.isOpen(victim)) ops.cancel(victim);
              }
            });
            if (job !== null) tracker.apply(job.events);
            const index = shard.engine.marketIndex(market.conditionId)!;
            expect(tracker.quote(market.conditionId)).toEqual({
              bid: shard.engine.bestBid(index, 0),
              ask: shard.engine.bestAsk(index, 0),
            });
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

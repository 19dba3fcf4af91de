// How a bot reads a refusal (refused, recovering, or of unknown outcome: looked up), and what an
// order took when placed, rebuilt from its taker trades as its answer would have said it.
import { describe, expect, it } from 'vitest';
import { failureOf, takerAmounts } from './doubts.ts';

const LINK =
  'the link to the trading core dropped before it answered; the command may or may not have been carried out (an order shows in GET /data/order/{id} if it was placed)';

describe('failureOf', () => {
  it('reads 5xx, no answer, the link wording and a duplicate as unknown; 425 as recovering; a 400 as refused', () => {
    expect(failureOf(503, LINK)).toBe('unknown');
    expect(failureOf(200, LINK)).toBe('unknown');
    expect(failureOf(undefined, 'no answer')).toBe('unknown');
    expect(failureOf(400, 'order 0xab is invalid. Duplicated.')).toBe('unknown');
    expect(failureOf(425, 'HTTP 425: the market is recovering after a restart; retry shortly')).toBe('recovering');
    expect(failureOf(200, 'the market is recovering after a restart; retry shortly')).toBe('recovering');
    expect(failureOf(400, 'not enough balance / allowance')).toBe('refused');
  });
});

describe('takerAmounts', () => {
  it('sums taker fills at the makers’ prices, the other token’s at 100 − its price, and skips maker trades', () => {
    const trades = [
      {
        id: 't1',
        taker_order_id: '0xo',
        asset_id: 'yes',
        maker_orders: [
          { matched_amount: '5', price: '0.55', asset_id: 'yes' },
          { matched_amount: '2', price: '0.4', asset_id: 'no' },
        ],
      },
      { id: 't2', taker_order_id: '0xother', asset_id: 'yes', maker_orders: [] },
    ];
    expect(takerAmounts('0xo', 'BUY', trades)).toEqual({
      making: 5 * 550_000 + 2 * 600_000,
      taking: 7_000_000,
      takerTrades: ['t1'],
    });
    expect(takerAmounts('0xo', 'SELL', trades)).toMatchObject({ making: 7_000_000, taking: 3_950_000 });
  });
});

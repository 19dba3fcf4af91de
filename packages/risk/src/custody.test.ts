// Custody movements in the risk book: held while on their way through the shard, settled from
// their events; a redemption burns tokens and pays out of the market's locked collateral.
import { describe, expect, it } from 'vitest';
import { OrderType, Side } from '@pmx/matching';
import { COLLATERAL } from './risk-book.ts';
import { halves, redemptionValue } from './redemption.ts';
import { Desk, TOKEN } from './testing/desk.ts';

describe('custody', () => {
  it('split and merge turn collateral into pairs and back, locking and releasing it', () => {
    const desk = new Desk();
    desk.risk.credit('a', COLLATERAL, 10 * TOKEN);
    expect(desk.custody('a', 'split', [4 * TOKEN, 4 * TOKEN])).toEqual({ ok: true });
    expect(desk.custody('a', 'split', [7 * TOKEN, 7 * TOKEN])).toEqual({
      ok: false,
      asset: COLLATERAL,
      available: 6 * TOKEN,
      wanted: 7 * TOKEN,
    });
    expect(desk.risk.lockedCollateral('m')).toBe(4 * TOKEN);
    expect(desk.custody('a', 'merge', [3 * TOKEN, 3 * TOKEN])).toEqual({ ok: true });
    expect(desk.risk.balances('a')).toMatchObject({
      [COLLATERAL]: { total: 9 * TOKEN },
      YES: { total: TOKEN },
      NO: { total: TOKEN },
    });
    desk.expectConserved();
  });

  it('holds nothing of a custody movement that cannot be covered whole, naming the asset short', () => {
    const desk = new Desk();
    desk.risk.credit('a', 'YES', 5 * TOKEN);
    expect(desk.custody('a', 'merge', [TOKEN, TOKEN])).toEqual({ ok: false, asset: 'NO', available: 0, wanted: TOKEN });
    expect(desk.risk.balance('a', 'YES')).toEqual({ total: 5 * TOKEN, reserved: 0, available: 5 * TOKEN });
    desk.expectConserved();
  });

  it('a custody hold keeps an order from spending what the movement takes, and its release gives it back', () => {
    const desk = new Desk();
    desk.risk.credit('a', COLLATERAL, 10 * TOKEN);
    expect(desk.risk.holdCustody('x', 'a', [{ asset: COLLATERAL, amount: 8 * TOKEN }])).toEqual({ ok: true });
    expect(desk.place('a', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 50, size: 5 * TOKEN })).toBe(
      'not enough balance',
    );
    desk.risk.releaseCustody('x');
    expect(desk.risk.balance('a', COLLATERAL)).toEqual({ total: 10 * TOKEN, reserved: 0, available: 10 * TOKEN });
    desk.expectConserved();
  });

  it('redeeming a resolved market burns the tokens and pays the winner 1 and the loser 0, out of the locked collateral', () => {
    const desk = new Desk();
    desk.risk.credit('a', COLLATERAL, 10 * TOKEN);
    desk.risk.credit('b', COLLATERAL, 10 * TOKEN);
    desk.custody('a', 'split', [6 * TOKEN, 6 * TOKEN]);
    desk.custody('b', 'split', [4 * TOKEN, 4 * TOKEN]);
    desk.risk.resolve('m', [TOKEN, 0]);
    expect(desk.custody('a', 'redeem', [6 * TOKEN, 6 * TOKEN], [TOKEN, 0])).toEqual({ ok: true });
    desk.expectConserved();
    expect(desk.custody('b', 'redeem', [4 * TOKEN, 4 * TOKEN], [TOKEN, 0])).toEqual({ ok: true });
    expect(desk.risk.balances('a')).toMatchObject({
      [COLLATERAL]: { total: 10 * TOKEN },
      YES: { total: 0 },
      NO: { total: 0 },
    });
    expect(desk.risk.lockedCollateral('m')).toBe(0);
    desk.expectConserved();
  });

  it('a 50/50 redemption pays half per token, rounded down once over both, and leaves the odd unit locked', () => {
    expect(redemptionValue([3, 3], [500_000, 500_000])).toEqual({ total: 3, perToken: [1, 2] });
    expect(redemptionValue([1, 0], [500_000, 500_000])).toEqual({ total: 0, perToken: [0, 0] });
    expect(redemptionValue([2 ** 52, 2 ** 52], [500_000, 500_000])).toEqual({
      total: 2 ** 52,
      perToken: [2 ** 51, 2 ** 51],
    });
    expect(halves(7)).toEqual([3, 4]);
    const desk = new Desk();
    desk.risk.credit('a', COLLATERAL, 10);
    desk.custody('a', 'split', [10, 10]);
    desk.risk.resolve('m', [500_000, 500_000]);
    desk.custody('a', 'redeem', [1, 0], [500_000, 500_000]);
    expect(desk.risk.balance('a', COLLATERAL).total).toBe(0);
    desk.custody('a', 'redeem', [9, 10], [500_000, 500_000]);
    expect(desk.risk.balance('a', COLLATERAL).total).toBe(9);
    expect(desk.risk.lockedCollateral('m')).toBe(1);
    desk.expectConserved();
  });
});

import { describe, expect, it } from 'vitest';
import { applyMovement, emptyPosition, foldPositions, positionKey, type TokenMovement } from './positions.ts';

const TOKEN = 1_000_000;
const move = (bought: boolean, size: number, cash: number): TokenMovement => ({
  address: 'a',
  asset: 'yes',
  market: 'm',
  token: 0,
  bought,
  size,
  cash,
});

describe('positions at average cost', () => {
  it('a buy adds shares, cost and total bought', () => {
    const p = emptyPosition('a', 'yes', 'm', 0);
    applyMovement(p, move(true, 10 * TOKEN, 4 * TOKEN));
    applyMovement(p, move(true, 10 * TOKEN, 6 * TOKEN));
    expect(p).toMatchObject({
      size: 20n * 1_000_000n,
      costBasis: 10n * 1_000_000n,
      totalBought: 20n * 1_000_000n,
      realizedPnl: 0n,
    });
  });

  it('a sell realizes proceeds minus the average cost of the shares sold', () => {
    const p = emptyPosition('a', 'yes', 'm', 0);
    applyMovement(p, move(true, 20 * TOKEN, 10 * TOKEN)); // avg 0.50
    applyMovement(p, move(false, 5 * TOKEN, 3.5 * TOKEN)); // sold at 0.70
    expect(p).toMatchObject({
      size: 15_000_000n,
      costBasis: 7_500_000n,
      realizedPnl: 1_000_000n,
      closedCost: 2_500_000n,
    });
  });

  it('rounds the removed cost down and never loses a base unit of cost', () => {
    const p = emptyPosition('a', 'yes', 'm', 0);
    applyMovement(p, move(true, 3, 1));
    applyMovement(p, move(false, 1, 0));
    expect(p.costBasis + p.closedCost).toBe(1n);
    applyMovement(p, move(false, 2, 0));
    expect(p).toMatchObject({ size: 0n, costBasis: 0n, closedCost: 1n, realizedPnl: -1n });
  });

  it('folds movements in order, so a buy then a sell in one batch sees the buy', () => {
    const positions = foldPositions(new Map(), [move(true, 10 * TOKEN, 5 * TOKEN), move(false, 10 * TOKEN, 6 * TOKEN)]);
    expect(positions.get(positionKey('a', 'yes'))).toMatchObject({ size: 0n, costBasis: 0n, realizedPnl: 1_000_000n });
  });

  it('a buy written after a withdrawal of its tokens ends as if the two came in their real order', () => {
    // Buy 100 for 50, withdraw 40: 60 left at cost 30, whichever the ledger saw first.
    const inOrder = emptyPosition('a', 'yes', 'm', 0);
    applyMovement(inOrder, move(true, 100 * TOKEN, 50 * TOKEN));
    applyMovement(inOrder, move(false, 40 * TOKEN, 0));
    const reordered = emptyPosition('a', 'yes', 'm', 0);
    reordered.size = -40n * 1_000_000n; // the withdrawal, applied first by the trigger
    applyMovement(reordered, move(true, 100 * TOKEN, 50 * TOKEN));
    expect([reordered.size, reordered.costBasis]).toEqual([60_000_000n, 30_000_000n]);
    expect(inOrder.costBasis).toBe(30_000_000n);
    const whole = emptyPosition('a', 'yes', 'm', 0);
    whole.size = -100n * 1_000_000n;
    applyMovement(whole, move(true, 100 * TOKEN, 50 * TOKEN));
    expect([whole.size, whole.costBasis]).toEqual([0n, 0n]);
  });
});

// POST /orders answers every order on its own, whatever one of them fails with.
import { describe, expect, it } from 'vitest';
import { HttpError } from '@pmx/http';
import { IntakeError } from '../orders/order-intake.ts';
import { ShardNotReadyError } from '../trading-core.ts';
import { placeEach } from './orders.ts';

describe('placeEach', () => {
  it("turns each failure into that order's own result and keeps the others' answers", async () => {
    const faults: unknown[] = [];
    const outcomes: Record<string, () => Promise<unknown>> = {
      placed: async () => ({ success: true, orderID: '0xa', status: 'matched' }),
      refused: async () => {
        throw new IntakeError('not enough balance / allowance');
      },
      recovering: async () => {
        throw new ShardNotReadyError('the market is recovering after a restart; retry shortly');
      },
      ledgerDown: async () => {
        throw new HttpError(503, 'the order ledger is unavailable; retry shortly');
      },
      fault: async () => {
        throw new TypeError('boom');
      },
    };
    const results = await placeEach(
      Object.keys(outcomes),
      (name) => outcomes[name as string]!(),
      (error) => faults.push(error),
    );
    const failure = (errorMsg: string) => ({
      success: false,
      errorMsg,
      orderID: '',
      takingAmount: '',
      makingAmount: '',
      status: '',
      tradeIDs: [],
      transactionsHashes: [],
    });
    expect(results).toEqual([
      { success: true, orderID: '0xa', status: 'matched' },
      failure('not enough balance / allowance'),
      failure('the market is recovering after a restart; retry shortly'),
      failure('the order ledger is unavailable; retry shortly'),
      failure('internal server error'),
    ]);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toBeInstanceOf(TypeError);
  });
});

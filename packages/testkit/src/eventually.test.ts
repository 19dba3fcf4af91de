import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';

describe('eventually', () => {
  it('resolves with the first value that is not false, after throws and falses', async () => {
    let calls = 0;
    const value = await eventually(() => {
      calls += 1;
      if (calls === 1) throw new Error('not yet');
      return calls < 3 ? false : calls;
    });
    expect(value).toBe(3);
  });

  it("rejects with the check's last error once the time is up", async () => {
    await expect(eventually(() => Promise.reject(new Error('still missing')), 50)).rejects.toThrow('still missing');
  });

  it('names what it waited for when the check kept answering false', async () => {
    await expect(eventually(() => false, 50, 'the batch')).rejects.toThrow('timed out waiting for the batch');
  });
});

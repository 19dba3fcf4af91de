// Tasks of one key run one at a time in order, a failure does not block the next, other keys run
// alongside, and nothing is kept once a key's tasks are done.
import { describe, expect, it } from 'vitest';
import { KeyedTurns } from './keyed-turns.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedTurns', () => {
  it('runs one key in turn and other keys alongside', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = turns.run('a', async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('a1 end');
      throw new Error('a1 failed');
    });
    const second = turns.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = turns.run('b', async () => {
      log.push('b1');
      return 'b';
    });
    await tick();
    expect(log).toEqual(['a1 start', 'b1']);
    expect(turns.size).toBe(1);
    releaseFirst();
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(await other).toBe('b');
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    await tick();
    expect(turns.size).toBe(0);
  });
});

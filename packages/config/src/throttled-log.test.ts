import { describe, expect, it } from 'vitest';
import { throttledLog } from './throttled-log.ts';

describe('throttledLog', () => {
  it('logs at most once per period and names what it left out', () => {
    let now = 0;
    const lines: string[] = [];
    const log = throttledLog(
      (line) => lines.push(line),
      10_000,
      () => now,
    );
    for (let i = 0; i < 50; i++) {
      log(`error ${i}`);
      now += 100;
    }
    expect(lines).toEqual(['error 0']);
    now += 10_000;
    log('later');
    expect(lines).toEqual(['error 0', 'later (and 49 like it left out)']);
  });
});

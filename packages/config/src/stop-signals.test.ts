import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleStopSignals } from './stop-signals.ts';

/** A service stopping under test: its lines, its exits, and a signal source to send to. */
function service(close: () => Promise<void>, deadlineMs = 1000) {
  const lines: string[] = [];
  const exits: number[] = [];
  const signals = new EventEmitter();
  const stopper = handleStopSignals('svc', close, {
    deadlineMs,
    log: (line) => lines.push(line),
    exit: (code) => exits.push(code),
    signals: signals as never,
  });
  return { lines, exits, signals, stopper };
}

const never = () => new Promise<void>(() => {});

describe('stop signals', () => {
  it('closes once on the first signal and exits 0, saying how long it took', async () => {
    let closes = 0;
    const s = service(async () => void closes++);
    s.signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closes).toBe(1);
    expect(s.exits).toEqual([0]);
    expect(s.lines[0]).toBe('SIGTERM, stopping');
    expect(s.lines[1]).toMatch(/^stopped in \d+ ms$/);
  });

  it('exits at once on a second signal while a close hangs (a stalled database)', () => {
    const s = service(never);
    s.signals.emit('SIGTERM');
    expect(s.exits).toEqual([]);
    s.signals.emit('SIGINT');
    expect(s.exits).toEqual([1]);
    expect(s.lines.at(-1)).toBe('SIGINT again while stopping; exiting now');
  });

  it('exits 1 when the close outlasts the deadline, and keeps a fault status over a signal', async () => {
    const hung = service(never, 50);
    hung.signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hung.exits).toEqual([1]);
    expect(hung.lines.at(-1)).toBe('still stopping after 0 s; exiting without finishing');

    const faulted = service(async () => {});
    faulted.stopper.stop(70, 'fatal shard fault');
    faulted.signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(faulted.exits.at(-1)).toBe(70);
  });

  it('exits 1 and logs the error when the close fails', async () => {
    const s = service(async () => {
      throw new Error('boom');
    });
    s.signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.exits).toEqual([1]);
    expect(s.lines.at(-1)).toMatch(/^stopping failed: Error: boom/);
  });
});

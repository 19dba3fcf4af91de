import { describe, expect, it, vi } from 'vitest';
import { Heartbeats } from './heartbeats.ts';

function clocked(timeoutMs = 10_000) {
  let now = 1_000_000;
  const heartbeats = new Heartbeats(timeoutMs, () => now);
  return { heartbeats, advance: (ms: number) => (now += ms) };
}

describe('Heartbeats', () => {
  it('arms with "", refreshes with the id it answered, and fires only after the timeout', () => {
    const { heartbeats, advance } = clocked();
    const first = heartbeats.beat('k', '');
    if (!first.ok) throw new Error(first.error);
    advance(9_000);
    expect(heartbeats.beat('k', first.heartbeatId)).toEqual({ ok: true, heartbeatId: first.heartbeatId, armed: false });
    advance(10_000);
    expect(heartbeats.takeExpired()).toEqual([]); // exactly the timeout: still in time
    advance(1);
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['k']);
    expect(heartbeats.takeExpired()).toEqual([]);
  });

  it('refuses an id that is not current, and a late heartbeat until the sweep has fired', () => {
    const { heartbeats, advance } = clocked();
    expect(heartbeats.beat('k', 'made-up')).toMatchObject({ ok: false, error: expect.stringMatching(/send "" to start/) });
    const armed = heartbeats.beat('k', '');
    if (!armed.ok) throw new Error(armed.error);
    expect(heartbeats.beat('k', 'other')).toMatchObject({ ok: false });
    expect(heartbeats.beat('k', '')).toEqual({ ok: true, heartbeatId: armed.heartbeatId, armed: false }); // a restarted bot re-syncs
    advance(10_001);
    expect(heartbeats.beat('k', armed.heartbeatId)).toMatchObject({ ok: false, error: expect.stringMatching(/after the timeout/) });
    expect(heartbeats.beat('k', '')).toMatchObject({ ok: false });
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['k']);
    const again = heartbeats.beat('k', '');
    expect(again.ok && again.heartbeatId !== armed.heartbeatId).toBe(true);
  });

  it('keeps each API key to its own switch', () => {
    const { heartbeats, advance } = clocked(1000);
    heartbeats.beat('a', '');
    advance(600);
    heartbeats.beat('b', '');
    advance(600);
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['a']);
  });

  it('measures silence in elapsed time: a step of the wall clock neither fires nor holds the switch', () => {
    const wall = vi.spyOn(Date, 'now'); // before the switch is made, in case it reads Date.now
    const heartbeats = new Heartbeats(10_000);
    try {
      heartbeats.beat('k', '');
      wall.mockReturnValue(Date.UTC(2100, 0, 1)); // stepped forward by decades
      expect(heartbeats.takeExpired()).toEqual([]);
      wall.mockReturnValue(0); // and back
      expect(heartbeats.beat('k', '')).toMatchObject({ ok: true });
    } finally {
      wall.mockRestore();
    }
  });

  it('restores kept switches as if they had just beaten: their ids go on, silence fires them after one timeout', () => {
    const { heartbeats, advance } = clocked();
    heartbeats.restore([{ apiKey: 'alive', heartbeatId: 'id-a' }, { apiKey: 'dead', heartbeatId: 'id-d' }]);
    advance(9_000);
    expect(heartbeats.beat('alive', 'id-a')).toEqual({ ok: true, heartbeatId: 'id-a', armed: false });
    advance(1_001);
    expect(heartbeats.takeExpired()).toEqual([{ apiKey: 'dead', heartbeatId: 'id-d' }]);
  });
});

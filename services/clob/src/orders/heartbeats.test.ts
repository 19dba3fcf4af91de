// The dead-man's switch on a test clock: arming, refreshing and firing, and how its store writes
// (slow, failed or unknown) decide what a bot is told and when its switch may fire.
import { describe, expect, it, vi } from 'vitest';
import { OutcomeUnknown } from '@pmx/db';
import { Heartbeats } from './heartbeats.ts';

function clocked(timeoutMs = 10_000) {
  let now = 1_000_000;
  const heartbeats = new Heartbeats(timeoutMs, () => now);
  return { heartbeats, advance: (ms: number) => (now += ms) };
}

describe('Heartbeats', () => {
  it('arms with "", refreshes with the id it answered, and fires only after the timeout', async () => {
    const { heartbeats, advance } = clocked();
    const first = await heartbeats.beat('k', '');
    if (!first.ok) throw new Error(first.error);
    advance(9_000);
    expect(await heartbeats.beat('k', first.heartbeatId)).toEqual({
      ok: true,
      heartbeatId: first.heartbeatId,
      armed: false,
    });
    advance(10_000);
    expect(heartbeats.takeExpired()).toEqual([]); // exactly the timeout: still in time
    advance(1);
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['k']);
    expect(heartbeats.takeExpired()).toEqual([]);
  });

  it('refuses an id that is not current, and a late heartbeat until the sweep has fired', async () => {
    const { heartbeats, advance } = clocked();
    expect(await heartbeats.beat('k', 'made-up')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/send "" to start/),
    });
    const armed = await heartbeats.beat('k', '');
    if (!armed.ok) throw new Error(armed.error);
    expect(await heartbeats.beat('k', 'other')).toMatchObject({ ok: false });
    expect(await heartbeats.beat('k', '')).toEqual({ ok: true, heartbeatId: armed.heartbeatId, armed: false }); // a restarted bot re-syncs
    advance(10_001);
    expect(await heartbeats.beat('k', armed.heartbeatId)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/after the timeout/),
    });
    expect(await heartbeats.beat('k', '')).toMatchObject({ ok: false });
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['k']);
    const again = await heartbeats.beat('k', '');
    expect(again.ok && again.heartbeatId !== armed.heartbeatId).toBe(true);
  });

  it('keeps each API key to its own switch', async () => {
    const { heartbeats, advance } = clocked(1000);
    await heartbeats.beat('a', '');
    advance(600);
    await heartbeats.beat('b', '');
    advance(600);
    expect(heartbeats.takeExpired().map((s) => s.apiKey)).toEqual(['a']);
  });

  it('measures silence in elapsed time: a step of the wall clock neither fires nor holds the switch', async () => {
    const wall = vi.spyOn(Date, 'now'); // before the switch is made, in case it reads Date.now
    const heartbeats = new Heartbeats(10_000);
    try {
      await heartbeats.beat('k', '');
      wall.mockReturnValue(Date.UTC(2100, 0, 1)); // stepped forward by decades
      expect(heartbeats.takeExpired()).toEqual([]);
      wall.mockReturnValue(0); // and back
      expect(await heartbeats.beat('k', '')).toMatchObject({ ok: true });
    } finally {
      wall.mockRestore();
    }
  });

  it('restores kept switches as if they had just beaten: their ids go on, silence fires them after one timeout', async () => {
    const { heartbeats, advance } = clocked();
    heartbeats.restore([
      { apiKey: 'alive', heartbeatId: 'id-a' },
      { apiKey: 'dead', heartbeatId: 'id-d' },
    ]);
    advance(9_000);
    expect(await heartbeats.beat('alive', 'id-a')).toEqual({ ok: true, heartbeatId: 'id-a', armed: false });
    advance(1_001);
    expect(heartbeats.takeExpired()).toEqual([{ apiKey: 'dead', heartbeatId: 'id-d' }]);
  });

  /** A store whose writes wait for the test to settle them. */
  function controlledStore() {
    const saves: { apiKey: string; id: string; settle: (ok: boolean, error?: Error) => void }[] = [];
    const removed: string[] = [];
    let failRemovals = false;
    const store = {
      save: (apiKey: string, id: string) =>
        new Promise<void>((resolve, reject) =>
          saves.push({ apiKey, id, settle: (ok, error = new Error('store down')) => (ok ? resolve() : reject(error)) }),
        ),
      remove: async (apiKey: string, id: string) => {
        if (failRemovals) throw new Error('store down');
        removed.push(`${apiKey} ${id}`);
      },
    };
    return { store, saves, removed, failRemovals: (fail: boolean) => (failRemovals = fail) };
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('a save whose outcome stayed unknown is answered "not armed", and the row it may have left is removed', async () => {
    const { store, saves, removed } = controlledStore();
    const heartbeats = new Heartbeats(
      1000,
      () => 0,
      store,
      () => {},
    );
    const beat = heartbeats.beat('k', '');
    await turn();
    let settleSendings = () => {};
    const pending = new Promise<void>((resolve) => (settleSendings = resolve));
    saves[0]!.settle(false, new OutcomeUnknown(new Error('connection lost'), pending));
    expect(await beat).toMatchObject({ ok: false, unavailable: true });
    // The bot arms again at once: its save waits for the first one's sendings given up on.
    const again = heartbeats.beat('k', '');
    await turn();
    expect(saves).toHaveLength(1);
    expect(removed).toEqual([]); // not while a sending given up on may still commit
    settleSendings();
    await turn();
    await turn();
    expect(removed).toEqual([`k ${saves[0]!.id}`]);
    expect(saves).toHaveLength(2);
    saves[1]!.settle(true);
    expect(await again).toMatchObject({ ok: true, armed: true, heartbeatId: saves[1]!.id });
  });

  it('answers a new switch only once it is stored; beats meanwhile share the outcome, a failed write arms nothing', async () => {
    const now = 0;
    const { store, saves } = controlledStore();
    const heartbeats = new Heartbeats(
      1000,
      () => now,
      store,
      () => {},
    );
    const first = heartbeats.beat('k', '');
    const retry = heartbeats.beat('k', '');
    await turn();
    expect(saves).toHaveLength(1);
    saves[0]!.settle(false);
    // The retry is not told 200 with an id while nothing is armed or stored.
    expect(await first).toMatchObject({ ok: false, unavailable: true });
    expect(await retry).toMatchObject({ ok: false, unavailable: true });
    const again = heartbeats.beat('k', '');
    await turn();
    saves[1]!.settle(true);
    expect(await again).toMatchObject({ ok: true, armed: true, heartbeatId: saves[1]!.id });
  });

  it("counts a new switch's silence from when it is stored: a slow write neither fires it nor answers a lie", async () => {
    let now = 0;
    const { store, saves, removed } = controlledStore();
    const heartbeats = new Heartbeats(
      1000,
      () => now,
      store,
      () => {},
    );
    const arming = heartbeats.beat('k', '');
    await turn();
    now += 5000; // the write is slow: the bot has no id yet, so it cannot be silent
    // Firing here would cancel a live bot's orders.
    expect(heartbeats.takeExpired()).toEqual([]);
    saves[0]!.settle(true);
    expect(await arming).toMatchObject({ ok: true, armed: true, heartbeatId: saves[0]!.id });
    now += 1000;
    expect(heartbeats.takeExpired()).toEqual([]);
    now += 1;
    expect(heartbeats.takeExpired()).toEqual([{ apiKey: 'k', heartbeatId: saves[0]!.id }]);
    await turn();
    expect(removed).toEqual([`k ${saves[0]!.id}`]);
  });

  it('tries a failed removal of a fired switch again at the next sweep', async () => {
    let now = 0;
    const { store, removed, failRemovals } = controlledStore();
    const heartbeats = new Heartbeats(
      1000,
      () => now,
      store,
      () => {},
    );
    heartbeats.restore([{ apiKey: 'k', heartbeatId: 'id-k' }]);
    failRemovals(true);
    now += 1001;
    expect(heartbeats.takeExpired()).toHaveLength(1);
    await turn();
    expect(removed).toEqual([]);
    failRemovals(false);
    expect(heartbeats.takeExpired()).toEqual([]);
    await turn();
    expect(removed).toEqual(['k id-k']);
    heartbeats.takeExpired();
    await turn();
    expect(removed).toEqual(['k id-k']); // once removed, not again
  });

  it("keeps a key's saves in order: a slow save of a disarmed switch cannot land over the next switch's row", async () => {
    const now = 0;
    const rows = new Map<string, string>();
    const pending: (() => void)[] = [];
    const store = {
      // Each save lands when the test lets it.
      save: (apiKey: string, id: string) =>
        new Promise<void>((resolve) => pending.push(() => (rows.set(apiKey, id), resolve()))),
      remove: async (apiKey: string, id: string) => {
        if (rows.get(apiKey) === id) rows.delete(apiKey);
      },
    };
    const heartbeats = new Heartbeats(
      1000,
      () => now,
      store,
      () => {},
    );
    const first = heartbeats.beat('k', '');
    await turn();
    heartbeats.disarm('k'); // gone while its save is slow
    const second = heartbeats.beat('k', '');
    await turn();
    // The second save waits for the first: run at once, it could land first.
    expect(pending).toHaveLength(1);
    pending[0]!();
    await turn();
    expect(pending).toHaveLength(2);
    pending[1]!();
    const [a, b] = await Promise.all([first, second]);
    expect(a.ok).toBe(false);
    if (!b.ok) throw new Error(b.error);
    await turn();
    expect(rows.get('k')).toBe(b.heartbeatId);
  });
});

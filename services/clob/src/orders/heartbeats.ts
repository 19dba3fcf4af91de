// The dead-man's switch market makers arm with POST /v1/heartbeats: once an API key has sent a
// heartbeat, it must send the next within the timeout, or all its open orders are cancelled. A
// heartbeat carries the id the previous answer gave (the first one an empty id); a key whose
// switch fired, or that never armed one, starts again with an empty id.

import { randomUUID } from 'node:crypto';

/** `armed`: this beat armed a new switch (its id is to be stored before it is answered). */
export type Beat = { ok: true; heartbeatId: string; armed: boolean } | { ok: false; error: string };

/** An armed switch: its key and the id its last answer carried. */
export interface Switch {
  apiKey: string;
  heartbeatId: string;
}

interface Armed {
  id: string;
  lastAt: number;
}

export class Heartbeats {
  private readonly armed = new Map<string, Armed>();

  constructor(
    /** How long a key may stay silent once armed, in ms. */
    readonly timeoutMs: number,
    /**
     * A monotonic clock: silence is elapsed time. With the wall clock (until 2026-11-24) a clock
     * stepped forward (NTP, a resumed VM) cancelled every armed key's orders at once, and one
     * stepped back kept a dead bot's orders live for the step.
     */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A heartbeat of `apiKey` carrying `id` ("" to arm, or after the switch fired). */
  beat(apiKey: string, id: string): Beat {
    const at = this.now();
    const current = this.armed.get(apiKey);
    if (current !== undefined && at - current.lastAt > this.timeoutMs) {
      // Too late: the switch has fired; the sweep cancels the orders and disarms it.
      return { ok: false, error: 'the heartbeat came after the timeout: the open orders of this API key are being cancelled; send "" to start again' };
    }
    if (current === undefined) {
      if (id !== '') return { ok: false, error: `heartbeat_id ${id} is not current (none is armed for this API key): send "" to start` };
      const armed = { id: randomUUID(), lastAt: at };
      this.armed.set(apiKey, armed);
      return { ok: true, heartbeatId: armed.id, armed: true };
    }
    // An empty id while armed is taken too: a restarted bot cannot know the id its last run had.
    if (id !== '' && id !== current.id) return { ok: false, error: `heartbeat_id ${id} is not current: send the id of the last answer` };
    current.lastAt = at;
    return { ok: true, heartbeatId: current.id, armed: false };
  }

  /**
   * Arms the switches kept from before a restart, as if each had just beaten: a bot that is alive
   * goes on with its id (or ""), one that died has one timeout of silence from now.
   */
  restore(switches: readonly Switch[]): void {
    const at = this.now();
    for (const { apiKey, heartbeatId } of switches) if (!this.armed.has(apiKey)) this.armed.set(apiKey, { id: heartbeatId, lastAt: at });
  }

  /** Disarms a key's switch (its key was deleted, or its id could not be stored). */
  disarm(apiKey: string): void {
    this.armed.delete(apiKey);
  }

  /** The switches silent past the timeout, disarmed: the caller cancels their keys' orders. */
  takeExpired(): Switch[] {
    const at = this.now();
    const expired: Switch[] = [];
    for (const [apiKey, armed] of this.armed) {
      if (at - armed.lastAt > this.timeoutMs) {
        this.armed.delete(apiKey);
        expired.push({ apiKey, heartbeatId: armed.id });
      }
    }
    return expired;
  }
}

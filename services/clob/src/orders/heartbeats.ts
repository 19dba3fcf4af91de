// The dead-man's switch market makers arm with POST /v1/heartbeats: once an API key has sent a
// heartbeat, it must send the next within the timeout, or all its open orders are cancelled. A
// heartbeat carries the id the previous answer gave (the first one an empty id); a key whose
// switch fired, or that never armed one, starts again with an empty id.
//
// Armed switches are kept in a store (Postgres, heartbeat-store.ts) so a restart re-arms them. A
// switch is answered only once it is stored (beats that find its store write pending wait for it
// and share its outcome), and a fired switch is removed after its store write, retried until it
// goes: a row left behind would arm again at a restart and cancel orders placed since, unarmed.

import { randomUUID } from 'node:crypto';
import { throttledLog, logger } from '@pmx/config';
import { OutcomeUnknown } from '@pmx/db';

/**
 * `armed`: this beat armed a new switch. A refusal is the caller's (400) unless `unavailable`:
 * the switch could not be stored (503, retry).
 */
export type Beat = { ok: true; heartbeatId: string; armed: boolean } | { ok: false; error: string; unavailable?: true };

/** An armed switch: its key and the id its last answer carried. */
export interface Switch {
  apiKey: string;
  heartbeatId: string;
}

/** Where armed switches are kept across restarts. */
export interface SwitchStore {
  save(apiKey: string, heartbeatId: string): Promise<void>;
  /** Removes this id's row only (a switch armed since stays). */
  remove(apiKey: string, heartbeatId: string): Promise<void>;
}

interface Armed {
  id: string;
  lastAt: number;
  /** Its store write: true once stored, false if it failed. */
  stored: Promise<boolean>;
  /**
   * Not stored (so not answered) yet: its silence starts once it is, so a switch whose write is
   * slow cannot fire before its bot has its id and cancel a live bot's orders.
   */
  pending: boolean;
}

const MEMORY_ONLY: SwitchStore = { save: async () => {}, remove: async () => {} };
const UNSTORED = 'the heartbeat switch could not be stored, so it is not armed: retry shortly';
const DISARMED = 'the heartbeat switch was disarmed before it was stored (its API key was deleted)';

export class Heartbeats {
  private readonly armed = new Map<string, Armed>();
  /** Fired switches whose rows are still to be removed (true: a removal is under way). */
  private readonly unremoved = new Map<Switch, boolean>();
  /** Each key's store saves, in order: a slow earlier save must not land over a later switch. */
  private readonly saves = new Map<string, Promise<unknown>>();

  constructor(
    /** How long a key may stay silent once armed, in ms. */
    readonly timeoutMs: number,
    /**
     * A monotonic clock: silence is elapsed time. With the wall clock a clock stepped forward
     * (NTP, a resumed VM) would cancel every armed key's orders at once, and one stepped back
     * would keep a dead bot's orders live for the step.
     */
    private readonly now: () => number = () => performance.now(),
    private readonly store: SwitchStore = MEMORY_ONLY,
    private readonly log: (line: string) => void = throttledLog((line) => logger('clob.heartbeats').warn(line)),
  ) {}

  /** A heartbeat of `apiKey` carrying `id` ("" to arm, or after the switch fired). */
  async beat(apiKey: string, id: string): Promise<Beat> {
    const at = this.now();
    const current = this.armed.get(apiKey);
    if (current !== undefined && !current.pending && at - current.lastAt > this.timeoutMs) {
      // Too late: the switch has fired; the sweep cancels the orders and disarms it.
      return {
        ok: false,
        error:
          'the heartbeat came after the timeout: the open orders of this API key are being cancelled; send "" to start again',
      };
    }
    if (current === undefined) {
      if (id !== '')
        return {
          ok: false,
          error: `heartbeat_id ${id} is not current (none is armed for this API key): send "" to start`,
        };
      const armed: Armed = { id: randomUUID(), lastAt: at, stored: Promise.resolve(false), pending: true };
      armed.stored = this.inTurn(apiKey, () => this.store.save(apiKey, armed.id)).then(
        () => {
          armed.pending = false;
          armed.lastAt = Math.max(armed.lastAt, this.now());
          return true;
        },
        (error: unknown) => {
          // Answered "not armed": a row the save may have left goes (retried each sweep), once
          // every sending of it has settled (one given up on could commit after the removal).
          if (error instanceof OutcomeUnknown)
            this.removeStored(
              { apiKey, heartbeatId: armed.id },
              error.pending.then(() => true),
            );
          return false;
        },
      );
      this.armed.set(apiKey, armed);
      return this.answer(apiKey, armed, true);
    }
    // An empty id while armed is taken too: a restarted bot cannot know the id its last run had.
    if (id !== '' && id !== current.id)
      return { ok: false, error: `heartbeat_id ${id} is not current: send the id of the last answer` };
    current.lastAt = at;
    return this.answer(apiKey, current, false);
  }

  /**
   * Runs a key's save after the saves before it have settled, so an earlier save never lands over
   * a later switch's row. (A switch does not fire while its save is pending, so a second one starts
   * meanwhile only after the first was disarmed or its save failed. Removals name their id, so they
   * cannot take a later switch's row.) Otherwise a slow save of a fired switch could land after the
   * next switch's, and its removal then take the live switch's row.
   */
  private inTurn(apiKey: string, save: () => Promise<void>): Promise<void> {
    const next = (this.saves.get(apiKey) ?? Promise.resolve()).then(save);
    // A save that failed with OutcomeUnknown holds the turn until every sending of it has settled:
    // one given up on could otherwise commit over the next switch's row.
    const settled = next.catch((error: unknown) => (error instanceof OutcomeUnknown ? error.pending : undefined));
    this.saves.set(apiKey, settled);
    void settled.then(() => {
      if (this.saves.get(apiKey) === settled) this.saves.delete(apiKey);
    });
    return next;
  }

  /** Once the switch's store write is through: stored and still armed, or why not. */
  private async answer(apiKey: string, armed: Armed, arming: boolean): Promise<Beat> {
    if (!(await armed.stored)) {
      if (this.armed.get(apiKey) === armed) this.armed.delete(apiKey);
      return { ok: false, error: UNSTORED, unavailable: true };
    }
    if (this.armed.get(apiKey) !== armed) return { ok: false, error: DISARMED };
    return { ok: true, heartbeatId: armed.id, armed: arming };
  }

  /**
   * Arms the switches kept from before a restart, as if each had just beaten: a bot that is alive
   * goes on with its id (or ""), one that died has one timeout of silence from now.
   */
  restore(switches: readonly Switch[]): void {
    const at = this.now();
    for (const { apiKey, heartbeatId } of switches) {
      if (!this.armed.has(apiKey))
        this.armed.set(apiKey, { id: heartbeatId, lastAt: at, stored: Promise.resolve(true), pending: false });
    }
  }

  /** Disarms a key's switch (its key was deleted: its row goes with it). */
  disarm(apiKey: string): void {
    this.armed.delete(apiKey);
  }

  /**
   * The switches silent past the timeout, disarmed: the caller cancels their keys' orders. Their
   * rows are removed once written (and removals that failed before are tried again).
   */
  takeExpired(): Switch[] {
    for (const [fired, underWay] of this.unremoved) if (!underWay) this.removeStored(fired, Promise.resolve(true));
    const at = this.now();
    const expired: Switch[] = [];
    for (const [apiKey, armed] of this.armed) {
      if (!armed.pending && at - armed.lastAt > this.timeoutMs) {
        this.armed.delete(apiKey);
        const fired = { apiKey, heartbeatId: armed.id };
        expired.push(fired);
        this.removeStored(fired, armed.stored);
      }
    }
    return expired;
  }

  private removeStored(fired: Switch, stored: Promise<boolean>): void {
    this.unremoved.set(fired, true);
    void stored
      .then((written) => (written ? this.store.remove(fired.apiKey, fired.heartbeatId) : undefined))
      .then(
        () => this.unremoved.delete(fired),
        (error: unknown) => {
          this.unremoved.set(fired, false);
          this.log(
            `forgetting the fired heartbeat switch of API key ${fired.apiKey} failed (tried again each second): ${(error as Error).message}`,
          );
        },
      );
  }
}

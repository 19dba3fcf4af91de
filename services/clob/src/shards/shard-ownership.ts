// Each shard is owned by exactly one front-end process at a time (docs/design/overview.md). A
// process holds a Postgres session advisory lock per shard it owns, on a connection of its own, for
// as long as it runs; a second front end on the same ledger (on the same port, which uWS opens with
// SO_REUSEPORT, on another port or on another host) is refused at start instead of running a
// second copy of the books and balances. A crash drops the connection, and with it the locks.
//
// A session that drops while the process runs (Postgres restarted, a network cut, an idle-session
// killer) takes the locks with it. So the locks are checked every few seconds from the pool: when
// they are gone they are taken again on a new session, and if another process has them by then,
// `onLost` is told (the front end halts trading: the other one runs the books). A loss is seen in
// `pg_locks`: a session not of this process holds them. One check at a time, the next timed from
// the end of the last or from its deadline, and one take at a time however long it waits: checks
// on an interval pile up while Postgres is slow (a failover), and when the session turns out gone
// the first takes the locks again and the next finds them taken (by this very process) and halts
// trading; and no hung query or take may stop every check after it.

import type { Sql } from '@pmx/db';
import { StartRefusal, logger } from '@pmx/config';

/** The advisory-lock class of shard ownership (`pmx` in ASCII); the shard is the second key. */
const LOCK_CLASS = 0x706d78;
const CHECK_MS = 2_000;
/** A check still waiting on Postgres after this long no longer holds up the next one. */
const CHECK_DEADLINE_MS = 3 * CHECK_MS;

type Reserved = Awaited<ReturnType<Sql['reserve']>>;

/** Takes every shard's lock on a session of its own, or none (StartRefusal names the one taken). */
async function take(
  sql: Sql,
  count: number,
  onSession?: (pid: number) => void,
): Promise<{ connection: Reserved; pid: number }> {
  const connection = await sql.reserve();
  let pid: number | undefined;
  try {
    const [me] = await connection<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    pid = me!.pid;
    onSession?.(pid); // before any lock: a check seeing one held by this session knows it
    for (let shard = 0; shard < count; shard++) {
      const [row] = await connection<
        { taken: boolean }[]
      >`SELECT pg_try_advisory_lock(${LOCK_CLASS}::int, ${shard}::int) AS taken`;
      if (row?.taken !== true) {
        throw new StartRefusal(
          `shard ${shard} is owned by another clob process on this ledger (${count} shards here): stop it first, or give this one its own database`,
        );
      }
    }
    return { connection, pid };
  } catch (error) {
    // Refused: the session is alive and gives its locks back. Anything else may be a dead
    // connection, and a query or a release on it throws out of postgres.js's own callbacks (a
    // crash): the session is ended from the pool instead, which
    // frees any lock it took, and the connection is left unused.
    if (error instanceof StartRefusal) {
      await connection`SELECT pg_advisory_unlock_all()`.catch(() => {});
      connection.release();
    } else {
      await endSession(sql, pid);
    }
    throw error;
  }
}

/** Ends a lock session from the pool (its locks go with it), never touching its own connection. */
async function endSession(sql: Sql, pid: number | undefined): Promise<void> {
  if (pid !== undefined) await sql`SELECT pg_terminate_backend(${pid})`.catch(() => {});
}

export class ShardOwnership {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * Taking the locks again, under way, and its session once known. One at a time, however long it
   * takes: two would race, and the loser would take the winner (this process) for another owner.
   */
  private taking: { done: Promise<void>; pid: number | undefined } | undefined;

  private constructor(
    private readonly sql: Sql,
    private readonly count: number,
    private held: { connection: Reserved; pid: number },
    private readonly onLost: (error: Error) => void,
  ) {
    this.schedule();
  }

  /**
   * The next check, timed from the end of the last, or from its deadline: a query on a connection
   * the network black-holed can wait for many minutes, and no check would run meanwhile.
   */
  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      let deadline: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (deadline = setTimeout(resolve, CHECK_DEADLINE_MS).unref()));
      void Promise.race([this.check(), late]).then(() => {
        clearTimeout(deadline);
        this.schedule();
      });
    }, CHECK_MS);
    this.timer.unref();
  }

  /** Takes shards 0 … count − 1, or none: throws StartRefusal when another process owns one. */
  static async claim(sql: Sql, count: number, onLost: (error: Error) => void): Promise<ShardOwnership> {
    return new ShardOwnership(sql, count, await take(sql, count), onLost);
  }

  /** The sessions holding shard locks of this database, with how many each. */
  private async holders(): Promise<{ pid: number; n: number }[]> {
    return this.sql<{ pid: number; n: number }[]>`
      SELECT pid, count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid::int8 = ${LOCK_CLASS}::int8 AND objsubid = 2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       GROUP BY pid`;
  }

  /**
   * Held: nothing to do. Held by a session not of this process: lost (`onLost`). Held by nobody:
   * taken again, unless a take is under way (it may wait on a stalled pool for long: the checks go
   * on meanwhile, so a loss is still seen).
   */
  private async check(): Promise<void> {
    if (this.closed) return;
    const held = this.held;
    let holders: { pid: number; n: number }[];
    try {
      holders = await this.holders();
    } catch {
      return; // Postgres unreachable: nobody else can take the locks meanwhile either.
    }
    // A late answer about a session already replaced says nothing now.
    if (this.closed || this.held !== held) return;
    if ((holders.find((h) => h.pid === held.pid)?.n ?? 0) >= this.count) return;
    const other = holders.find((h) => h.pid !== held.pid && h.pid !== this.taking?.pid);
    if (other !== undefined) return this.lose(`the session ${other.pid} holds ${other.n} of them`);
    if (this.taking !== undefined) return;
    // The session went (its connection is dead: it is dropped, never used again).
    const attempt: { done: Promise<void>; pid: number | undefined } = { done: Promise.resolve(), pid: undefined };
    attempt.done = this.takeAgain(attempt).finally(() => {
      if (this.taking === attempt) this.taking = undefined;
    });
    this.taking = attempt;
    await attempt.done;
  }

  private lose(why: string): void {
    this.closed = true;
    this.onLost(
      new Error(`the shard locks were lost with their Postgres session and another process has them now: ${why}`),
    );
  }

  private async takeAgain(attempt: { pid: number | undefined }): Promise<void> {
    let taken: Awaited<ReturnType<typeof take>>;
    try {
      taken = await take(this.sql, this.count, (pid) => (attempt.pid = pid));
    } catch (error) {
      // Refused: another session has one, and it is not this process's (one take at a time).
      if (error instanceof StartRefusal && !this.closed) this.lose(error.message);
      return; // otherwise tried again at the next check
    }
    if (this.closed) {
      // Released (or lost) meanwhile: give these up too, or they would stay held by this process.
      await endSession(this.sql, taken.pid);
      return;
    }
    this.held = taken;
    logger('clob').warn(
      `the Postgres session holding the shard locks was lost; took them again (${this.count} shards)`,
    );
  }

  /**
   * Gives the shards up (at close, once they have stopped), waiting on Postgres at most a check's
   * deadline: a stalled Postgres held a stop for ever. Locks left then go with the session when
   * the pool ends.
   */
  async release(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    // One deadline for all of it.
    const late = new Promise<false>((resolve) => setTimeout(() => resolve(false), CHECK_DEADLINE_MS).unref());
    // A take under way gives up what it takes once it sees the release (takeAgain).
    await Promise.race([this.taking?.done, late]);
    // A query on a dead reserved connection throws out of postgres.js's own callbacks: unlock only
    // a session that still holds the locks (a dropped one has already let them go).
    const holding = this.holders().then(
      (rows) => (rows.find((h) => h.pid === this.held.pid)?.n ?? 0) > 0,
      () => false,
    );
    if (!(await Promise.race([holding, late]))) return;
    await Promise.race([this.held.connection`SELECT pg_advisory_unlock_all()`.catch(() => {}), late]);
    this.held.connection.release();
  }
}

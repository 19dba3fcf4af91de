// Each shard is owned by exactly one front-end process at a time (ARCHITECTURE §8). A process
// holds a Postgres session advisory lock per shard it owns, on a connection of its own, for as
// long as it runs; a second front end on the same ledger (on the same port, which uWS opens with
// SO_REUSEPORT, on another port or on another host) is refused at start instead of running a
// second copy of the books and balances. A crash drops the connection, and with it the locks.

import type { Sql } from '@pmx/db';
import { StartRefusal } from '@pmx/config';

/** The advisory-lock class of shard ownership (`pmx` in ASCII); the shard is the second key. */
const LOCK_CLASS = 0x706d78;

export class ShardOwnership {
  private constructor(private readonly connection: Awaited<ReturnType<Sql['reserve']>>) {}

  /** Takes shards 0 … count − 1, or none: throws StartRefusal when another process owns one. */
  static async claim(sql: Sql, count: number): Promise<ShardOwnership> {
    const connection = await sql.reserve();
    try {
      for (let shard = 0; shard < count; shard++) {
        const [row] = await connection<{ taken: boolean }[]>`SELECT pg_try_advisory_lock(${LOCK_CLASS}::int, ${shard}::int) AS taken`;
        if (row?.taken !== true) {
          throw new StartRefusal(`shard ${shard} is owned by another clob process on this ledger (${count} shards here): stop it first, or give this one its own database`);
        }
      }
    } catch (error) {
      await connection`SELECT pg_advisory_unlock_all()`.catch(() => {});
      connection.release();
      throw error;
    }
    return new ShardOwnership(connection);
  }

  /** Gives the shards up (at close, once they have stopped). */
  async release(): Promise<void> {
    await this.connection`SELECT pg_advisory_unlock_all()`.catch(() => {});
    this.connection.release();
  }
}

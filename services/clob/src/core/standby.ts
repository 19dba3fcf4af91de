// A standby core (docs/design/cluster.md): it starts beside the active one, with its shard threads
// and connections up, and tries the shards' Postgres advisory locks every POLL_MS. The active
// core holds them on a session of its own; when it dies its session ends and the locks go, and
// the standby takes them and recovers (ingest drains the queues, the ledger rebuilds the books).

import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from '@pmx/db';
import { StartRefusal } from '@pmx/config';
import { ShardOwnership } from '../shards/shard-ownership.ts';

const POLL_MS = 100;

/** Resolves with the shards once their locks are free and taken; rejects when `signal` aborts. */
export async function waitForShardLocks(
  sql: Sql,
  count: number,
  onLost: (error: Error) => void,
  signal: AbortSignal,
): Promise<ShardOwnership> {
  for (;;) {
    signal.throwIfAborted();
    try {
      return await ShardOwnership.claim(sql, count, onLost);
    } catch (error) {
      // Held by the active core; anything else (Postgres away) is tried again as well.
      if (!(error instanceof StartRefusal) && signal.aborted) throw error;
    }
    await sleep(POLL_MS, undefined, { signal }).catch(() => {});
  }
}

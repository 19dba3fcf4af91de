// The history follower against real Postgres and embedded ClickHouse: history that is ahead of
// the ledger (a database recreated while the history directory stayed) is dropped and rebuilt
// from this ledger, not served stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouse, type ClickHouseClient } from '@pmx/clickhouse';
import { createTempDir, createTestDatabase, type TempDir, type TestDatabase } from '@pmx/testkit';
import { ensureHistorySchema, HISTORY_TABLES } from '../history-tables.ts';
import { HistoryFollower } from './history-follower.ts';

let db: TestDatabase;
let dir: TempDir;
let ch: ClickHouseClient;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await createTempDir('pmx-follower-');
  ch = openClickHouse({ path: dir.path });
});
afterAll(async () => {
  await ch?.close();
  await dir?.remove();
  await db?.drop();
});

const count = async (table: string) => Number((await (await ch.query({ query: `SELECT count() AS n FROM ${table}`, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n);

describe('HistoryFollower', () => {
  it("drops history that belongs to another ledger, and copies this ledger's from the start", async () => {
    await ensureHistorySchema(ch);
    // The old ledger's history: shard 0 copied up to 1000, one price point of it.
    await ch.insert({ table: HISTORY_TABLES.offsets, values: [{ shard: 0, seq: 1000, at: Date.now() }], format: 'JSONEachRow' });
    await ch.insert({ table: HISTORY_TABLES.pricePoints, values: [{ asset_id: 'old', kind: 'mid', ts: Date.now(), ref: '0-999', market: 'm', price: 0.5, size: 0, shard: 0, seq: 999 }], format: 'JSONEachRow' });
    // This ledger (a fresh database) has committed 3 events of shard 0.
    await db.sql`INSERT INTO shard_offsets (shard, last_seq) VALUES (0, 3)`;

    const logged: string[] = [];
    const follower = new HistoryFollower({ sql: db.sql, ch, flushIntervalMs: 50, log: (line) => logged.push(line) });
    await follower.start();
    try {
      expect(logged).toEqual([expect.stringMatching(/ClickHouse holds another ledger's history; rebuilding it from this ledger/)]);
      expect(await count(HISTORY_TABLES.pricePoints)).toBe(0);
      // It then copies this ledger (nothing but the offset here) and records it.
      await expect.poll(async () => Number((await (await ch.query({ query: `SELECT max(seq) AS s FROM ${HISTORY_TABLES.offsets}`, format: 'JSONEachRow' })).json<{ s: string }>())[0]!.s), { timeout: 5000 }).toBe(3);
    } finally {
      await follower.close();
    }
  });
});

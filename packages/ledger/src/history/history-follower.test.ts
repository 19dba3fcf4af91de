// The history follower against real Postgres and embedded ClickHouse: history copied from
// another ledger (a database recreated while the history directory stayed), ahead of this one or
// behind it, is dropped and rebuilt from this ledger, not served stale; this ledger's own history
// is kept across restarts.
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

const count = async (table: string) =>
  Number(
    (
      await (
        await ch.query({ query: `SELECT count() AS n FROM ${table}`, format: 'JSONEachRow' })
      ).json<{ n: string }>()
    )[0]!.n,
  );

describe('HistoryFollower', () => {
  it('upgrades the tables of earlier versions', async () => {
    await ch.command({
      query: `CREATE TABLE ${HISTORY_TABLES.trades} (trade_id String, maker_count UInt16) ENGINE = ReplacingMergeTree ORDER BY trade_id`,
    });
    await ch.command({
      query: `CREATE TABLE ${HISTORY_TABLES.offsets} (shard UInt32, seq UInt64, at DateTime64(3, 'UTC')) ENGINE = ReplacingMergeTree(seq) ORDER BY shard`,
    });
    await ensureHistorySchema(ch);
    await ensureHistorySchema(ch); // again: nothing left to do
    const types = await (
      await ch.query({
        query: `SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND ((table = 'trades' AND name = 'maker_count') OR (table = 'history_offsets' AND name = 'ledger')) ORDER BY table`,
        format: 'JSONEachRow',
      })
    ).json();
    expect(types).toEqual([
      { table: 'history_offsets', name: 'ledger', type: 'String' },
      { table: 'trades', name: 'maker_count', type: 'UInt32' },
    ]);
    await ch.insert({
      table: HISTORY_TABLES.trades,
      values: [{ trade_id: 't', maker_count: 70_000 }],
      format: 'JSONEachRow',
    });
    expect(
      await (
        await ch.query({ query: `SELECT maker_count FROM ${HISTORY_TABLES.trades}`, format: 'JSONEachRow' })
      ).json(),
    ).toEqual([{ maker_count: 70_000 }]);
    for (const table of [HISTORY_TABLES.trades, HISTORY_TABLES.offsets])
      await ch.command({ query: `DROP TABLE ${table}` });
  });

  it("drops history that belongs to another ledger, and copies this ledger's from the start", async () => {
    await ensureHistorySchema(ch);
    // The old ledger's history: shard 0 copied up to 1000, one price point of it.
    await ch.insert({
      table: HISTORY_TABLES.offsets,
      values: [{ shard: 0, seq: 1000, at: Date.now() }],
      format: 'JSONEachRow',
    });
    await ch.insert({
      table: HISTORY_TABLES.pricePoints,
      values: [
        {
          asset_id: 'old',
          kind: 'mid',
          ts: Date.now(),
          ref: '0-999',
          market: 'm',
          price: 0.5,
          size: 0,
          shard: 0,
          seq: 999,
        },
      ],
      format: 'JSONEachRow',
    });
    // This ledger (a fresh database) has committed 3 events of shard 0.
    await db.sql`INSERT INTO shard_offsets (shard, last_seq) VALUES (0, 3)`;

    const logged: string[] = [];
    const follower = new HistoryFollower({ sql: db.sql, ch, flushIntervalMs: 50, log: (line) => logged.push(line) });
    await follower.start();
    try {
      expect(logged).toEqual([
        expect.stringMatching(/ClickHouse holds another ledger's history; rebuilding it from this ledger/),
      ]);
      expect(await count(HISTORY_TABLES.pricePoints)).toBe(0);
      // It then copies this ledger (nothing but the offset here) and records it.
      await expect
        .poll(
          async () =>
            Number(
              (
                await (
                  await ch.query({
                    query: `SELECT max(seq) AS s FROM ${HISTORY_TABLES.offsets}`,
                    format: 'JSONEachRow',
                  })
                ).json<{ s: string }>()
              )[0]!.s,
            ),
          { timeout: 5000 },
        )
        .toBe(3);
    } finally {
      await follower.close();
    }
  });

  it("keeps this ledger's history across a restart, and rebuilds history of another ledger that is behind", async () => {
    const offsets = async () =>
      (
        await ch.query({
          query: `SELECT shard, max(seq) AS seq, any(ledger) AS ledger FROM ${HISTORY_TABLES.offsets} GROUP BY shard`,
          format: 'JSONEachRow',
        })
      ).json<{ shard: number; seq: string; ledger: string }>();
    const [{ id }] = await db.sql<{ id: string }[]>`SELECT id::text AS id FROM ledger_identity`;
    const logged: string[] = [];
    const follower = () =>
      new HistoryFollower({ sql: db.sql, ch, flushIntervalMs: 50, log: (line) => logged.push(line) });
    const restarted = follower();
    await restarted.start();
    await restarted.close();
    expect(logged).toEqual([]);
    expect(await offsets()).toEqual([{ shard: 0, seq: '3', ledger: id }]);

    // Another ledger's history, at 2 (behind this ledger's 12): a recreated database that moved on.
    await ch.command({ query: `TRUNCATE TABLE ${HISTORY_TABLES.offsets}` });
    await ch.insert({
      table: HISTORY_TABLES.offsets,
      values: [{ shard: 0, seq: 2, at: Date.now(), ledger: '00000000-0000-4000-8000-000000000000' }],
      format: 'JSONEachRow',
    });
    await ch.insert({
      table: HISTORY_TABLES.pricePoints,
      values: [
        {
          asset_id: 'old',
          kind: 'mid',
          ts: Date.now(),
          ref: '0-1',
          market: 'm',
          price: 0.5,
          size: 0,
          shard: 0,
          seq: 1,
        },
      ],
      format: 'JSONEachRow',
    });
    await db.sql`UPDATE shard_offsets SET last_seq = 12 WHERE shard = 0`;
    const rebuilt = follower();
    await rebuilt.start();
    try {
      expect(logged).toEqual([
        expect.stringMatching(
          /copied from 00000000-0000-4000-8000-000000000000, not from this ledger .*rebuilding it from this ledger/,
        ),
      ]);
      expect(await count(HISTORY_TABLES.pricePoints)).toBe(0);
      await expect.poll(offsets, { timeout: 5000 }).toEqual([{ shard: 0, seq: '12', ledger: id }]);
    } finally {
      await rebuilt.close();
    }
  });
});

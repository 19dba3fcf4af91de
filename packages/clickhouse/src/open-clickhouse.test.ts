// Exercises the embedded (chdb) path end to end in a throwaway data directory.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, type TempDir } from '@pmx/testkit';
import { openClickHouse, type ClickHouseClient } from './open-clickhouse.ts';

interface TradeRow {
  trade_id: string;
  price_ticks: number;
  size: string;
}

let dir: TempDir;
let client: ClickHouseClient;

beforeAll(async () => {
  dir = await createTempDir('pmx-chdb-');
  // A subdirectory that does not exist yet: openClickHouse creates it.
  client = openClickHouse({ path: path.join(dir.path, 'clickhouse') });
});

afterAll(async () => {
  await client?.close();
  await dir?.remove();
});

describe('openClickHouse (embedded chdb)', () => {
  it('creates a MergeTree table, inserts JSONEachRow rows and reads them back', async () => {
    await client.command({
      query: `CREATE TABLE trades (trade_id String, price_ticks UInt32, size UInt64)
              ENGINE = MergeTree ORDER BY trade_id`,
    });
    await client.insert({
      table: 'trades',
      format: 'JSONEachRow',
      values: [
        { trade_id: 't1', price_ticks: 57, size: 50_000_000 },
        { trade_id: 't2', price_ticks: 58, size: 1_000_000 },
      ],
    });
    const result = await client.query({ query: 'SELECT * FROM trades ORDER BY trade_id', format: 'JSONEachRow' });
    // 64-bit integers come back as strings whatever the engine's default (SHARED_SETTINGS).
    expect(await result.json<TradeRow>()).toEqual([
      { trade_id: 't1', price_ticks: 57, size: '50000000' },
      { trade_id: 't2', price_ticks: 58, size: '1000000' },
    ]);
  });

  it('answers ping like a server would', async () => {
    expect((await client.ping()).success).toBe(true);
  });
});

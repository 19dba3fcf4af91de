// Runs against the real Postgres of PMX_PG_URL (infra/setup.sh provides it), in a fresh database.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionSettings } from '@pmx/config';
import { connectPostgres, type Sql } from './connection.ts';
import { createDatabase, databaseExists, databaseUrl, dropDatabase } from './databases.ts';
import { migrate, migrationFiles } from './migrations.ts';

const serverUrl = connectionSettings(process.env).pgUrl;
const name = `pmx_test_${randomBytes(6).toString('hex')}`;
let admin: Sql;
let sql: Sql;

beforeAll(async () => {
  admin = connectPostgres(serverUrl, { max: 1 });
  await createDatabase(admin, name);
  sql = connectPostgres(databaseUrl(serverUrl, name), { max: 4 });
});

afterAll(async () => {
  await sql?.end();
  await dropDatabase(admin, name);
  expect(await databaseExists(admin, name)).toBe(false);
  await admin.end();
});

describe('migrate', () => {
  it('applies each migration exactly once when several migrators race on a fresh database', async () => {
    const all = migrationFiles().map((file) => file.name);
    expect(all[0]).toBe('001_markets');
    const results = await Promise.all([migrate(sql), migrate(sql), migrate(sql)]);
    expect(results.flat().sort()).toEqual(all);
    const recorded = await sql`SELECT name FROM schema_migrations ORDER BY version`;
    expect(recorded.map((row) => row.name)).toEqual(all);
  });

  it('is a no-op when run again', async () => {
    expect(await migrate(sql)).toEqual([]);
  });

  it('creates the markets table with its unique tokens', async () => {
    await sql`INSERT INTO markets (condition_id, question, token0, token1, outcome0, outcome1, tick_size, min_order_size, neg_risk)
              VALUES ('0xc1', 'Will it rain?', 't-yes', 't-no', 'Yes', 'No', '0.01', 5000000, false)`;
    const [market] = await sql`SELECT * FROM markets WHERE condition_id = '0xc1'`;
    expect(market).toMatchObject({ token0: 't-yes', min_order_size: '5000000', neg_risk: false });
    expect(market?.created_at).toBeInstanceOf(Date);
    await expect(
      sql`INSERT INTO markets (condition_id, question, token0, token1, outcome0, outcome1, tick_size, min_order_size, neg_risk)
          VALUES ('0xc2', 'Dup?', 't-yes', 't-other', 'Yes', 'No', '0.01', 1, false)`,
    ).rejects.toThrow(/duplicate key/);
  });
});

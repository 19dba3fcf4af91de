// @pmx/db's migrations against the real Postgres of PMX_PG_URL (infra/setup.sh provides it), in
// an empty database from testkit (here rather than in packages/db, so the database carries the
// owner tag a later run sweeps by without a dependency cycle between db and testkit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, databaseExists, migrate, migrationFiles, type Sql } from '@pmx/db';
import { createTestDatabase, testkitConfig, type TestDatabase } from '@pmx/testkit';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  sql = db.sql;
});

afterAll(async () => {
  await db?.drop();
  const admin = connectPostgres(testkitConfig.pgUrl, { max: 1 });
  try {
    expect(await databaseExists(admin, db.name)).toBe(false);
  } finally {
    await admin.end();
  }
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

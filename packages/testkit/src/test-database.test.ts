import { afterAll, describe, expect, it } from 'vitest';
import { connectPostgres, databaseExists, migrationFiles } from '@pmx/db';
import { testkitConfig } from './config.ts';
import { createTestDatabase } from './test-database.ts';

const admin = connectPostgres(testkitConfig.pgUrl, { max: 1 });
afterAll(() => admin.end());

describe('createTestDatabase', () => {
  it('creates a uniquely named, migrated database and drops it', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(first.name).toMatch(/^pmx_test_o[0-9a-f]{8}p[0-9]+_[0-9a-f]{12}$/);
    expect(first.name).not.toBe(second.name);
    expect(new URL(first.url).pathname).toBe(`/${first.name}`);

    const migrated = await first.sql`SELECT count(*)::int AS n FROM schema_migrations`;
    expect(migrated[0]?.n).toBe(migrationFiles().length);
    await first.sql`SELECT condition_id FROM markets`;

    await Promise.all([first.drop(), second.drop()]);
    expect(await databaseExists(admin, first.name)).toBe(false);
    expect(await databaseExists(admin, second.name)).toBe(false);
  });

  it('drops the database even while another session is connected to it', async () => {
    const db = await createTestDatabase();
    const other = connectPostgres(db.url, { max: 1 });
    await other`SELECT 1`;
    await db.drop();
    await db.drop(); // a second drop is harmless
    expect(await databaseExists(admin, db.name)).toBe(false);
    await other.end({ timeout: 1 }).catch(() => {});
  });
});

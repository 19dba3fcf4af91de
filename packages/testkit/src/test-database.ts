// A throwaway Postgres database per test file (fully migrated unless asked for an empty one),
// dropped (even with open connections) when the test is done.
import { randomBytes } from 'node:crypto';
import {
  connectPostgres,
  createDatabase,
  databaseUrl,
  dropDatabase,
  migrate,
  type PostgresOptions,
  type Sql,
} from '@pmx/db';
import { testkitConfig } from './config.ts';
import { ownerTag } from './owner-tag.ts';

export interface TestDatabase {
  name: string;
  /** URL of the new database, for code under test that opens its own connections. */
  url: string;
  /** A pool on the new database. */
  sql: Sql;
  /** Closes `sql` and drops the database, ending any other session still on it. */
  drop(): Promise<void>;
}

export const TEST_DATABASE_PREFIX = 'pmx_test_';

/** e.g. `pmx_test_o3fa9c01bp12345_3f9a1c0b7e2d` (the owner tag lets a later run sweep it up). */
export function testDatabaseName(): string {
  return `${TEST_DATABASE_PREFIX}${ownerTag()}_${randomBytes(6).toString('hex')}`;
}

export async function createTestDatabase(
  options: {
    serverUrl?: string;
    postgres?: PostgresOptions;
    /** false: leave it empty (default true). */ migrate?: boolean;
  } = {},
): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? testkitConfig.pgUrl;
  const name = testDatabaseName();
  await withServer(serverUrl, (admin) => createDatabase(admin, name));
  const url = databaseUrl(serverUrl, name);
  const sql = connectPostgres(url, { max: 4, ...options.postgres });
  try {
    if (options.migrate !== false) await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    await withServer(serverUrl, (admin) => dropDatabase(admin, name));
    throw error;
  }
  let dropped = false;
  return {
    name,
    url,
    sql,
    async drop() {
      if (dropped) return;
      dropped = true;
      await sql.end({ timeout: 1 });
      await withServer(serverUrl, (admin) => dropDatabase(admin, name));
    },
  };
}

async function withServer<T>(serverUrl: string, work: (admin: Sql) => Promise<T>): Promise<T> {
  const admin = connectPostgres(serverUrl, { max: 1 });
  try {
    return await work(admin);
  } finally {
    await admin.end({ timeout: 1 });
  }
}

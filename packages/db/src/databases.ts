// Creating and dropping whole databases on a server, for set-up scripts and test harnesses.
import type { Sql } from './connection.ts';

/** The same server URL pointed at another database. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export async function databaseExists(sql: Sql, name: string): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`;
  return rows.length > 0;
}

/** CREATE DATABASE cannot run inside a transaction, so `sql` must not be a transaction. */
export async function createDatabase(sql: Sql, name: string): Promise<void> {
  await sql`CREATE DATABASE ${sql(name)}`;
}

/**
 * Drops the database even while others are connected to it (their sessions are ended). Ending an
 * autovacuum worker's session needs pg_signal_backend (infra/setup.sh grants it); without it the
 * drop is retried for a few seconds, until the worker is done.
 */
export async function dropDatabase(sql: Sql, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`;
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

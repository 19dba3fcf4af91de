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

/** Drops the database even while others are connected to it (their sessions are ended). */
export async function dropDatabase(sql: Sql, name: string): Promise<void> {
  await sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`;
}

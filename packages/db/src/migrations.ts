// Applies migrations/NNN_name.sql in order, each in its own transaction, and records them in
// schema_migrations; an advisory lock makes concurrent runs (several services starting) safe.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Sql } from './connection.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Advisory-lock key shared by every pmx migrator: the ASCII bytes of "pmxmi". */
const MIGRATION_LOCK_KEY = 0x706d786d69;

const FILE_PATTERN = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  version: number;
  /** File name without `.sql`, e.g. `001_markets`. */
  name: string;
  path: string;
}

export function migrationFiles(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  const files: MigrationFile[] = [];
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.sql')) continue;
    const match = FILE_PATTERN.exec(entry);
    if (!match) throw new Error(`migrate: ${entry} is not named NNN_lower_snake.sql`);
    files.push({ version: Number(match[1]), name: entry.slice(0, -4), path: path.join(dir, entry) });
  }
  files.sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.version === files[i - 1]!.version) {
      throw new Error(`migrate: two migrations share version ${files[i]!.version}`);
    }
  }
  return files;
}

/** Applies the pending migrations and returns the names of those it applied. */
export async function migrate(sql: Sql, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = [];
  for (const file of migrationFiles(dir)) {
    const ran = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`;
      const done = await tx`SELECT 1 FROM schema_migrations WHERE version = ${file.version}`;
      if (done.length > 0) return false;
      try {
        await tx.unsafe(readFileSync(file.path, 'utf8'));
      } catch (error) {
        throw new Error(`migrate: ${file.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${file.version}, ${file.name})`;
      return true;
    });
    if (ran) applied.push(file.name);
  }
  return applied;
}

// Public surface of @pmx/db: the Postgres connection, migrations and database admin helpers.
export {
  connectPostgres,
  outcomeUnknown,
  OutcomeUnknown,
  refusedOutright,
  settledWrite,
  type SettleOptions,
  postgresEndpoint,
  type Sql,
  type TransactionSql,
  type PostgresOptions,
} from './connection.ts';
export { migrate, migrationFiles, MIGRATIONS_DIR, type MigrationFile } from './migrations.ts';
export { createDatabase, dropDatabase, databaseExists, databaseUrl } from './databases.ts';

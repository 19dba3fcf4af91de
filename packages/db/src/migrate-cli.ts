// `tsx packages/db/src/migrate-cli.ts`: applies pending migrations to PMX_PG_URL and says what it did.
import { connectPostgres } from './connection.ts';
import { migrate } from './migrations.ts';
import { migrateCliConfig } from './config.ts';
import { reportStartFailures } from '@pmx/config';

reportStartFailures('migrate');

const sql = connectPostgres(migrateCliConfig.pgUrl, { max: 1, connect_timeout: 10 });
try {
  const applied = await migrate(sql);
  console.log(applied.length === 0 ? 'migrate: up to date' : `migrate: applied ${applied.join(', ')}`);
} catch (error) {
  console.error(`migrate: FAILED: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}

// What a service prints when it cannot start: one line an operator can act on for the usual
// causes (a bad setting, Postgres or Redis not reachable, a database not set up or migrated)
// rather than a stack trace; the whole error for anything else, which is a bug to report.
import { ConfigError } from './env-readers.ts';

interface ErrorFields {
  code?: string;
  address?: string;
  port?: number;
  message?: string;
}

const HINTS: Record<string, string> = {
  '42P01': 'the database is not migrated: run `pnpm --filter @pmx/db migrate` (infra/setup.sh does)',
  '3D000': 'the database does not exist: infra/setup.sh creates it (PMX_PG_URL names it)',
  '28P01': 'Postgres refused the password in PMX_PG_URL',
  '28000': 'Postgres refused the role in PMX_PG_URL',
};

/** One line for the usual causes, the whole error (with its stack) for anything else. */
export function describeStartFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as ErrorFields;
  const message = fields.message ?? String(error);
  if (fields.code !== undefined && HINTS[fields.code] !== undefined) return `cannot start: ${message} (${HINTS[fields.code]})`;
  if (fields.code === 'ECONNREFUSED' || fields.code === 'ENOTFOUND' || fields.code === 'EHOSTUNREACH') {
    const where = fields.address === undefined ? '' : ` ${fields.address}${fields.port === undefined ? '' : `:${fields.port}`}`;
    return `cannot start: nothing answers at${where} (${fields.code}); is Postgres running and PMX_PG_URL right? (infra/setup.sh starts it)`;
  }
  return `cannot start: ${error instanceof Error ? (error.stack ?? message) : message}`;
}

/**
 * Makes a failure before the service runs (a top-level await of its main module) exit 1 with
 * `<service>: <describeStartFailure>` instead of Node's source excerpt and stack trace. Call the
 * function it returns once the service runs: later faults are Node's to report, as before.
 */
export function reportStartFailures(service: string): () => void {
  const report = (error: Error) => {
    console.error(`${service}: ${describeStartFailure(error)}`);
    process.exit(1);
  };
  process.on('uncaughtException', report);
  return () => process.off('uncaughtException', report);
}

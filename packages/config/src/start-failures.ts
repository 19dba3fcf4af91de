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

/** A start refused for a reason the operator can act on, said in its message (no stack). */
export class StartRefusal extends Error {
  override readonly name = 'StartRefusal';
}

/** The server a refused connection was meant for, by its default port. */
const SERVERS: Record<number, string> = {
  5432: 'Postgres (PMX_PG_URL)',
  6379: 'Redis (PMX_REDIS_URL)',
  8123: 'ClickHouse (PMX_CLICKHOUSE_URL)',
};

/** One line for the usual causes, the whole error (with its stack) for anything else. */
export function describeStartFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as ErrorFields;
  const message = fields.message ?? String(error);
  if (error instanceof StartRefusal) return `cannot start: ${message}`;
  if (fields.code !== undefined && HINTS[fields.code] !== undefined)
    return `cannot start: ${message} (${HINTS[fields.code]})`;
  const where =
    fields.address === undefined ? '' : ` ${fields.address}${fields.port === undefined ? '' : `:${fields.port}`}`;
  if (fields.code === 'ECONNREFUSED' || fields.code === 'ENOTFOUND' || fields.code === 'EHOSTUNREACH') {
    const server = fields.port === undefined ? undefined : SERVERS[fields.port];
    const which = server ?? 'the server PMX_PG_URL, PMX_REDIS_URL or PMX_CLICKHOUSE_URL names there';
    return `cannot start: nothing answers at${where} (${fields.code}); is ${which} running and its address right? (infra/setup.sh starts Postgres and Redis)`;
  }
  if (fields.code === 'EADDRINUSE')
    return `cannot start: the port at${where} is in use: is this service already running? (its PMX_*_PORT setting picks another)`;
  // chdb: the embedded ClickHouse folder is locked by the process that has it open.
  if (/Cannot lock file .*Another server instance/s.test(message)) {
    return 'cannot start: the embedded ClickHouse folder (PMX_CLICKHOUSE_PATH) is in use by another process: is this service already running?';
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

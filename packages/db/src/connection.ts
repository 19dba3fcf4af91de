// Opens a `postgres` pool whose sockets have TCP_NODELAY set: without it Nagle's algorithm
// delays the small writes of COPY and pipelined queries by tens of milliseconds.
import net from 'node:net';
import postgres from 'postgres';
import { redactUrl } from '@pmx/config';

export type Sql = postgres.Sql;
/** The `sql` of a transaction (`sql.begin(async (tx) => …)`). */
export type TransactionSql = postgres.TransactionSql;
/** Every `postgres` option except where to connect, which comes from the URL. */
export type PostgresOptions = Omit<postgres.Options<Record<string, never>>, 'host' | 'port' | 'path'>;

/** Host and port of a single-host postgres:// URL (defaults: localhost, 5432). */
export function postgresEndpoint(url: string): { host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`connectPostgres: not a valid URL: ${redactUrl(url)}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`connectPostgres: expected a postgres:// URL, got ${redactUrl(url)}`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost';
  const port = parsed.port === '' ? 5432 : Number(parsed.port);
  return { host, port };
}

/**
 * A pool for `url`. Notices (e.g. "already exists, skipping") are dropped unless the caller
 * passes its own `onnotice`.
 */
export function connectPostgres(url: string, opts: PostgresOptions = {}): Sql {
  const { host, port } = postgresEndpoint(url);
  // `socket` is supported by the driver (a function returning a connected-or-connecting
  // net.Socket) but missing from its type definitions, hence the widened object.
  const options: postgres.Options<Record<string, never>> & { socket: () => net.Socket } = {
    onnotice: () => {},
    ...opts,
    socket: () => net.connect({ host, port, noDelay: true }),
  };
  return postgres(url, options);
}

/**
 * SQLSTATE classes of a refusal for what the statement is (cardinality, data, constraint, a
 * routine's or trigger's error, syntax or access, raised): the same statement is refused again.
 */
const REFUSAL_CLASSES = new Set(['21', '22', '23', '27', '2F', '38', '39', '42', '44', 'P0']);
/** SQLSTATE classes that may arrive after the statement committed: the connection or server going. */
const LOST_CLASSES = new Set(['08', '57', '58', 'XX']);
/** Errors of a connection that was never made: nothing was sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT']);

/**
 * Whether Postgres refused the statement for what it is (bad data, a constraint, an error a
 * trigger raised): nothing of it was written, and sending it again gets the same answer.
 */
export function refusedOutright(error: unknown): boolean {
  return error instanceof postgres.PostgresError && REFUSAL_CLASSES.has(error.code.slice(0, 2));
}

/**
 * Whether a statement that failed with this error may still have run (and committed): the
 * connection was lost or ended with the statement sent, or the server went down around it. Any
 * other answer from Postgres refused the statement, and a connection never made sent nothing.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return LOST_CLASSES.has(error.code.slice(0, 2));
  return !NOT_SENT.has((error as { code?: unknown } | undefined)?.code as string);
}

/** `work`, or a timeout error once `ms` have passed (Infinity: no limit); the work goes on. */
function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms === Infinity) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('no answer before the deadline'), { code: 'SETTLE_TIMEOUT' })),
      Math.max(0, ms),
    );
  });
  work.catch(() => {}); // answered after the deadline: nobody waits for it
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** An idempotent write still unanswered when its waiting was given up: it may have run or not. */
export class OutcomeUnknown extends Error {
  constructor(
    readonly lastError: unknown,
    /**
     * Settles once every sending given up on has settled (answered or failed): until then one
     * may still commit (it may wait in the client's queue, or on a lock in Postgres).
     */
    readonly pending: Promise<void> = Promise.resolve(),
  ) {
    super(
      `the write's outcome is unknown (Postgres did not answer it): ${lastError instanceof Error ? lastError.message : String(lastError)}`,
    );
  }
}

export interface SettleOptions {
  /** Wait before resending: attempt 1, 2, … (default 100 ms doubling to 2 s). */
  backoffMs?: (attempt: number) => number;
  /** True to stop waiting (a stop): the write then fails with OutcomeUnknown. */
  stopped?: () => boolean;
  /** Resending stops this long after the first answer was lost: OutcomeUnknown (default: never). */
  deadlineMs?: number;
  /** Told once, when the first answer is lost. */
  onLost?: (error: unknown) => void;
}

/**
 * Runs an idempotent write (one whose second sending changes nothing the first did) until
 * Postgres answers it. After an error that leaves its outcome unknown (outcomeUnknown: the
 * connection lost with the write sent, say), it is sent again until answered; then it has run,
 * once or twice to the same effect (`resent` says which). Any other error of the first sending
 * means nothing ran; while resending, only a refusal of the write for what it is
 * (refusedOutright) ends it (another, say Postgres read-only in a failover, does not show that
 * the lost sending did not commit).
 */
export async function settledWrite<T>(
  write: () => Promise<T>,
  options: SettleOptions = {},
): Promise<{ value: T; resent: boolean }> {
  let last: unknown;
  try {
    return { value: await write(), resent: false };
  } catch (error) {
    if (!outcomeUnknown(error)) throw error;
    options.onLost?.(error);
    last = error;
  }
  const giveUpAt = performance.now() + (options.deadlineMs ?? Infinity);
  const abandoned: Promise<unknown>[] = [];
  const unknown = () =>
    new OutcomeUnknown(
      last,
      Promise.allSettled(abandoned).then(() => undefined),
    );
  for (let attempt = 1; ; attempt++) {
    await new Promise((resolve) =>
      setTimeout(resolve, (options.backoffMs ?? ((n) => Math.min(2000, 50 * 2 ** n)))(attempt)),
    );
    // The pool was ended (the service stops): nothing will answer.
    const ended = (last as { code?: unknown } | undefined)?.code === 'CONNECTION_ENDED';
    if (ended || options.stopped?.() === true || performance.now() >= giveUpAt) throw unknown();
    const sending = write();
    abandoned.push(sending); // settled ones count for nothing in `pending`
    try {
      return { value: await beforeDeadline(sending, giveUpAt - performance.now()), resent: true };
    } catch (error) {
      if (refusedOutright(error)) throw error;
      last = error;
    }
  }
}

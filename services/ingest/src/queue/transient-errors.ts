// Which failures of a batch are worth waiting out (the batch is fine, Postgres is not) and which
// are the batch's own fault (they fail the job, loudly, and leave it in the failed set).

/** postgres.js connection errors and Node socket errors. */
const TRANSIENT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: 08 connection exceptions, 40001 serialization failure, 40P01 deadlock, 53 insufficient
 * resources, 55P03 lock not available, 57P01–57P03 the server shutting down or starting.
 */
function transientSqlState(code: string): boolean {
  return (
    code.startsWith('08') ||
    code.startsWith('53') ||
    ['40001', '40P01', '55P03', '57P01', '57P02', '57P03'].includes(code)
  );
}

export function isTransient(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return TRANSIENT_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && transientSqlState(code));
}

// Writes one complete response, corked, to a uWS response that is known to be alive. The caller
// checks `aborted`/`responded`; writing to an aborted uWS response throws.
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from './uws.ts';

const statusLines: string[] = [];

/** "200 OK" etc., built once per status code. */
export function statusLine(status: number): string {
  return (statusLines[status] ??= `${status} ${STATUS_CODES[status] ?? 'Unknown'}`);
}

// cork() takes a callback; module-level arguments keep that callback allocation-free (cork
// runs it synchronously, so they cannot be overwritten by another request meanwhile).
let target: HttpResponse | undefined;
let targetStatus = '';
let targetBody = '';
let targetHeaders: Readonly<Record<string, string>> | undefined;
let targetClose = false;
let targetCors: string | undefined;

function writeTarget(): void {
  const res = target!;
  res.writeStatus(targetStatus);
  let hasContentType = false;
  if (targetHeaders !== undefined) {
    for (const name in targetHeaders) {
      res.writeHeader(name, targetHeaders[name]!);
      if (name === 'content-type') hasContentType = true;
    }
  }
  if (!hasContentType) res.writeHeader('content-type', 'application/json');
  if (targetCors !== undefined) {
    res.writeHeader('access-control-allow-origin', targetCors);
    // A browser's script may read only the headers named here beyond a few basic ones: a 429's
    // Retry-After is how long to back off.
    if (targetHeaders !== undefined && 'retry-after' in targetHeaders)
      res.writeHeader('access-control-expose-headers', 'retry-after');
  }
  res.end(targetBody, targetClose);
}

/**
 * @param closeConnection set when the request body was not (fully) read, so the rest of it is
 *   never parsed as a next request on this connection
 * @param corsOrigin sent as `access-control-allow-origin` when set (HttpServerOptions.corsOrigin)
 */
export function writeResponse(
  res: HttpResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> | undefined,
  closeConnection: boolean,
  corsOrigin?: string,
): void {
  target = res;
  targetStatus = statusLine(status);
  targetBody = body;
  targetHeaders = headers;
  targetClose = closeConnection;
  targetCors = corsOrigin;
  try {
    res.cork(writeTarget);
  } finally {
    target = undefined;
    targetHeaders = undefined;
    targetBody = '';
  }
}

/**
 * Calls `answer` once the request's body has been read and dropped (at once when it has none), so
 * the connection stays open for the client's next request; only a body over `cap` (the largest
 * the server accepts) is left unread, and `answer(true)` then closes the connection, or its rest
 * would be parsed as the next request. Closing with bytes unread resets the connection, and
 * through the header front the reset could destroy the answer before the front read it. Call it
 * inside the uWS callback (it reads `req`); `answer` is not called for a client that went away.
 */
export function answerAfterBody(
  res: HttpResponse,
  req: HttpRequest,
  cap: number,
  answer: (close: boolean) => void,
): void {
  const length = req.getHeader('content-length');
  const chunked = req.getHeader('transfer-encoding') !== '';
  if (!chunked && (length === '' || length === '0')) return answer(false);
  if (!chunked && !(Number(length) <= cap)) return answer(true);
  let aborted = false;
  let done = false;
  let size = 0;
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk: ArrayBuffer, isLast: boolean) => {
    if (aborted || done) return;
    size += chunk.byteLength;
    if (size > cap || isLast) {
      done = true;
      answer(size > cap);
    }
  });
}

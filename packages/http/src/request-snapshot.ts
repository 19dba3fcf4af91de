// Copies what a handler may need out of a uWS request inside the synchronous uWS callback: the
// uWS HttpRequest is stack-allocated and invalid once that callback returns.
import { HttpError } from './http-error.ts';
import { RequestContext } from './request-context.ts';
import type { Locals, MountedRoute } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

// req.forEach needs a callback; a module-level target avoids allocating one per request
// (forEach runs synchronously, so no two requests ever share it).
let headerTarget: Record<string, string> = {};
function collectHeader(name: string, value: string): void {
  const previous = headerTarget[name];
  headerTarget[name] = previous === undefined ? value : `${previous}, ${value}`;
}

function copyHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  headerTarget = headers;
  req.forEach(collectHeader);
  headerTarget = {};
  return headers;
}

/** Control characters: in no id, slug or path segment any route takes. */
const CONTROL = /[\u0000-\u001f\u007f]/;

function copyParams(req: HttpRequest, names: readonly string[]): Record<string, string> {
  const params: Record<string, string> = Object.create(null);
  for (let i = 0; i < names.length; i++) {
    const raw = req.getParameter(i) ?? '';
    let value: string;
    try {
      value = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      throw new HttpError(400, `invalid path parameter: ${names[i]}`);
    }
    // A decoded NUL reached Postgres, which refused the query (a 503 "retry" for a bad id).
    if (CONTROL.test(value)) throw new HttpError(400, `invalid path parameter: ${names[i]} (control characters)`);
    params[names[i]!] = value;
  }
  return params;
}

export function snapshotRequest<L extends Locals>(
  mounted: MountedRoute<L>,
  res: HttpResponse,
  req: HttpRequest,
): RequestContext<L> {
  return new RequestContext<L>(
    mounted.route,
    mounted.route.method,
    req.getUrl(),
    copyParams(req, mounted.paramNames),
    // getQuery() returns undefined, not '', when the URL has no '?'.
    req.getQuery() ?? '',
    copyHeaders(req),
    res,
  );
}

/** Declared body size: -1 when none, -2 when chunked (size unknown until the last chunk). */
export function declaredBodyLength(headers: Readonly<Record<string, string>>): number {
  if (headers['transfer-encoding'] !== undefined) return -2;
  const length = headers['content-length'];
  if (length === undefined) return -1;
  const n = Number(length);
  return n > 0 ? n : -1;
}

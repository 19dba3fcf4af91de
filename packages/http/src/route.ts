// Routes are plain data: a route module exports an array of { method, path, handler, options }
// and a server mounts those arrays. Nothing here touches uWS.
import type { RequestContext } from './request-context.ts';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/** Request-scoped data that `before` hooks attach (e.g. the authenticated API key). */
export type Locals = object;

/**
 * What a handler returns. `body` is JSON-serialised unless it is a string, which is sent
 * verbatim (so a pre-serialised JSON document costs nothing). `content-type` defaults to
 * application/json; header names must be lowercase.
 */
export interface ResponseValue {
  status?: number;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

export type Handler<L extends Locals = Record<string, unknown>> = (
  ctx: RequestContext<L>,
) => ResponseValue | Promise<ResponseValue>;

/**
 * Runs before the handler, after the body has been read (so HMAC auth can see the raw bytes).
 * Reject by throwing an HttpError; pass data on through `ctx.locals`.
 */
export type Hook<L extends Locals = Record<string, unknown>> = (ctx: RequestContext<L>) => void | Promise<void>;

export interface RouteOptions<L extends Locals = Record<string, unknown>> {
  /** Body size cap for this route; default is the server's `maxBodyBytes`. */
  maxBodyBytes?: number;
  /** Hooks for this route, run after the server-wide hooks, in order. */
  before?: readonly Hook<L>[];
}

export interface Route<L extends Locals = Record<string, unknown>> {
  method: Method;
  /** uWS pattern: static segments and `:name` parameters, e.g. `/markets/:condition_id`. */
  path: string;
  handler: Handler<L>;
  options?: RouteOptions<L>;
}

/** A route as mounted: the route plus what the layer precomputes once for it. */
export interface MountedRoute<L extends Locals> {
  route: Route<L>;
  paramNames: readonly string[];
  /** Server-wide hooks followed by the route's own. */
  hooks: readonly Hook<L>[];
  maxBodyBytes: number;
}

/** Names of the `:name` segments of a pattern, in order (uWS hands parameters out by index). */
export function paramNames(path: string): string[] {
  const names: string[] = [];
  for (const segment of path.split('/')) if (segment.startsWith(':')) names.push(segment.slice(1));
  return names;
}

/** The pattern with parameter names erased: two routes with the same shape collide in uWS. */
export function patternShape(path: string): string {
  return path.replace(/\/:[^/]*/g, '/:');
}

// createHttpServer: mounts route arrays on one uWS app with the server-wide error shape, body
// cap and hooks, answers unknown paths (404) and wrong methods (405), and listens/closes.
import { rmSync } from 'node:fs';
import { errorBody, type ErrorShape } from './error-shape.ts';
import { answerAfterBody, writeResponse } from './response-writer.ts';
import { RouteRunner, type ErrorLogger, type ServerState } from './route-runner.ts';
import { paramNames, patternShape, type Hook, type Locals, type Method, type Route } from './route.ts';
import {
  closeApp,
  listenExclusive,
  uws,
  type HttpRequest,
  type HttpResponse,
  type TemplatedApp,
  type us_listen_socket,
  type WebSocketBehavior,
} from './uws.ts';
import { logger } from '@pmx/config';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_CLOSE_GRACE_MS = 5_000;

export interface HttpServerHooks<L extends Locals> {
  /** Run before every route's own hooks (e.g. a server-wide rate limit or IP allowlist). */
  before?: readonly Hook<L>[];
  /** Where faults are logged; default the `http` log with the route. Never sent to the client. */
  onError?: ErrorLogger;
}

export interface HttpServerOptions<L extends Locals = Record<string, unknown>> {
  routes: readonly Route<L>[];
  /** 'simple' → {error}; 'typed' → {type, error} (the catalog). */
  errorShape: ErrorShape;
  /** Body cap for routes without their own; default 1 MiB. Over it → 413. */
  maxBodyBytes?: number;
  hooks?: HttpServerHooks<L>;
  /**
   * Lets browsers on other origins call the API: every answer carries
   * `access-control-allow-origin` with this value (`*`: any), and a CORS preflight (OPTIONS) on a
   * served path is answered 204 with the path's methods and the headers the browser asks for.
   * Unset or empty: no CORS (OPTIONS is a 405, as any method no route serves).
   */
  corsOrigin?: string;
  /** WebSocket endpoints on the same port (uWS behaviours: upgrade, open, message, close …). */
  websockets?: readonly { path: string; behavior: WebSocketBehavior<any> }[];
}

export interface ListeningHttpServer {
  /** The bound port (the ephemeral one when listen was given 0). */
  readonly port: number;
  readonly host: string;
  /** Requests accepted and neither answered nor abandoned by their client yet. */
  readonly inFlight: number;
  /**
   * Stops accepting connections on the TCP port at once (a front's Unix socket stays open until
   * close): a stop's first step, while a front in front of it lets its clients' answers through.
   */
  stopListening(): void;
  /**
   * Stops accepting at once (the port is no longer listening), lets in-flight requests finish
   * for up to graceMs (default 5 s), then drops every remaining connection. uWS 20.30 does not
   * set SO_REUSEADDR, so connections the server itself closed sit in TIME_WAIT and a new bind
   * of the same fixed port fails for about a minute; port 0 (tests) is unaffected.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface HttpServer {
  /** The CORS origin every answer carries, if any (a front's own answers carry it too). */
  readonly corsOrigin: string | undefined;
  /** The shape of every error answer (a front's own too). */
  readonly errorShape: ErrorShape;
  /** The largest request body any route accepts (a front may hold back bigger ones). */
  readonly maxBodyBytes: number;
  /**
   * Binds synchronously; throws when the address is taken. One listen per server; `unixPath` also
   * binds a Unix socket there (the edge's way in, the one place X-Forwarded-For is trusted),
   * replacing a file left there by a process that was killed, and removed again on close.
   */
  listen(port: number, host?: string, options?: { unixPath?: string }): ListeningHttpServer;
}

const UWS_METHOD: Record<Method, 'get' | 'post' | 'del' | 'put' | 'patch'> = {
  GET: 'get',
  POST: 'post',
  DELETE: 'del',
  PUT: 'put',
  PATCH: 'patch',
};

function logFault(error: unknown, route: Route<any>): void {
  logger('http').error({ err: error }, `${route.method} ${route.path} failed`);
}

/**
 * The body of an answer to `req`: none to a HEAD, which a client reads no body after (RFC 9110
 * §9.3.2), so a body would be taken for the next answer. uWS then announces a length of 0 (its
 * `endWithoutBody`, which would announce the real one, stalls the connection in 20.30).
 */
function bodyFor(req: HttpRequest, body: string): string {
  return req.getMethod() === 'head' ? '' : body;
}

/** Answers a request no route serves (404, 405; a CORS preflight), its body read and dropped first. */
function answerUnserved(
  res: HttpResponse,
  req: HttpRequest,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> | undefined,
  cap: number,
  cors: string | undefined,
): void {
  answerAfterBody(res, req, cap, (close) => writeResponse(res, status, body, headers, close, cors));
}

/** A CORS preflight on a served path: its methods, and the request headers the browser names. */
function answerPreflight(
  res: HttpResponse,
  req: HttpRequest,
  methods: readonly Method[],
  origin: string,
  cap: number,
): void {
  const asked = req.getHeader('access-control-request-headers');
  const headers: Record<string, string> = {
    'access-control-allow-methods': methods.join(', '),
    'access-control-max-age': '600',
  };
  if (asked !== '') headers['access-control-allow-headers'] = asked;
  // A preflight has no body, but one sent anyway is read like any other: with a cap of 0 the
  // connection would close with it unread, and the reset loses the 204 through the front about half
  // the time.
  answerUnserved(res, req, 204, '', headers, cap, origin);
}

function validate(routes: readonly Route<any>[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    if (!(route.method in UWS_METHOD))
      throw new Error(`@pmx/http: unsupported method ${route.method} for ${route.path}`);
    if (!route.path.startsWith('/')) throw new Error(`@pmx/http: path must start with '/': ${route.path}`);
    const key = `${route.method} ${patternShape(route.path)}`;
    if (seen.has(key)) throw new Error(`@pmx/http: two routes for ${key}`);
    seen.add(key);
  }
  // uWS matches a static segment before a parameter and before the method, so the 405 catch-all
  // of /a/b would answer a method that only /a/:x serves: paths that overlap must serve the same.
  const methods = new Map<string, Set<string>>();
  for (const route of routes) {
    const shape = patternShape(route.path);
    methods.set(shape, (methods.get(shape) ?? new Set()).add(route.method));
  }
  const shapes = [...methods.keys()];
  for (const [i, a] of shapes.entries()) {
    for (const b of shapes.slice(i + 1)) {
      const same = [...methods.get(a)!].sort().join() === [...methods.get(b)!].sort().join();
      if (!same && overlap(a, b))
        throw new Error(
          `@pmx/http: ${a} and ${b} overlap but serve different methods (uWS would answer 405 for one of them)`,
        );
    }
  }
}

/** Whether some path matches both patterns (segment by segment, a parameter matches anything). */
function overlap(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  return x.length === y.length && x.every((segment, i) => segment === y[i] || segment === ':' || y[i] === ':');
}

export function createHttpServer<L extends Locals = Record<string, unknown>>(
  options: HttpServerOptions<L>,
): HttpServer {
  validate(options.routes);
  const shape = options.errorShape;
  const state: ServerState = {
    errorShape: shape,
    corsOrigin: options.corsOrigin === '' ? undefined : options.corsOrigin,
    onError: options.hooks?.onError ?? logFault,
    inFlight: 0,
    onIdle: undefined,
  };
  const serverHooks = options.hooks?.before ?? [];
  const app: TemplatedApp = uws.App();
  for (const { path, behavior } of options.websockets ?? []) app.ws(path, behavior);

  // Methods served per path shape, for the 405 answer's Allow header.
  const allowed = new Map<string, { path: string; methods: Method[] }>();
  let largestBody = 0;
  for (const route of options.routes) {
    largestBody = Math.max(largestBody, route.options?.maxBodyBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    const runner = new RouteRunner<L>(state, {
      route,
      paramNames: paramNames(route.path),
      hooks: [...serverHooks, ...(route.options?.before ?? [])],
      maxBodyBytes: route.options?.maxBodyBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    });
    app[UWS_METHOD[route.method]](route.path, (res, req) => runner.handle(res, req));
    const entry = allowed.get(patternShape(route.path)) ?? { path: route.path, methods: [] };
    entry.methods.push(route.method);
    allowed.set(patternShape(route.path), entry);
  }

  // uWS prefers a method-specific handler over `any` on the same pattern, and static and
  // parameter segments over the trailing wildcard, so these only see what no route took. No route
  // serves HEAD, so every HEAD ends here; its answer has no body (bodyFor).
  const notAllowedBody = errorBody(shape, 405, 'method not allowed');
  const cors = state.corsOrigin;
  for (const { path, methods } of allowed.values()) {
    const headers = { allow: methods.join(', ') };
    if (cors !== undefined)
      app.options(path, (res: HttpResponse, req: HttpRequest) => answerPreflight(res, req, methods, cors, largestBody));
    app.any(path, (res: HttpResponse, req: HttpRequest) =>
      answerUnserved(res, req, 405, bodyFor(req, notAllowedBody), headers, largestBody, cors),
    );
  }
  const notFoundBody = errorBody(shape, 404, 'not found');
  app.any('/*', (res: HttpResponse, req: HttpRequest) =>
    answerUnserved(res, req, 404, bodyFor(req, notFoundBody), undefined, largestBody, cors),
  );

  let listening = false;
  return {
    maxBodyBytes: largestBody,
    corsOrigin: cors,
    errorShape: shape,
    listen(port: number, host = '127.0.0.1', listenOptions: { unixPath?: string } = {}): ListeningHttpServer {
      if (listening) throw new Error('@pmx/http: this server is already listening');
      let socket: us_listen_socket | false | undefined;
      listenExclusive(app, host, port, (listenSocket) => {
        socket = listenSocket;
      });
      if (socket === undefined) throw new Error('@pmx/http: uWS did not report the listen result synchronously');
      if (socket === false) {
        // Named as Node names its own (code, address, port), so a start failure says it in one line.
        throw Object.assign(
          new Error(`@pmx/http: cannot listen on ${host}:${port} (address in use or not available)`),
          { code: 'EADDRINUSE', address: host, port },
        );
      }
      const tcp: us_listen_socket = socket;
      let unixSocket: us_listen_socket | undefined;
      const unixPath = listenOptions.unixPath;
      if (unixPath !== undefined) {
        // The TCP port is ours (bound exclusively), so a socket file at this path is a leftover.
        rmSync(unixPath, { force: true });
        let unix: us_listen_socket | false | undefined;
        app.listen_unix((listenSocket) => {
          unix = listenSocket;
        }, unixPath);
        if (!unix) {
          uws.us_listen_socket_close(tcp);
          throw new Error(`@pmx/http: cannot listen on the Unix socket ${unixPath}`);
        }
        unixSocket = unix;
      }
      let tcpOpen = true;
      const stopListening = () => {
        if (tcpOpen) uws.us_listen_socket_close(tcp);
        tcpOpen = false;
      };
      listening = true;
      const boundPort = uws.us_socket_local_port(tcp);
      let closing: Promise<void> | undefined;
      return {
        port: boundPort,
        host,
        get inFlight() {
          return state.inFlight;
        },
        stopListening,
        close({ graceMs = DEFAULT_CLOSE_GRACE_MS } = {}): Promise<void> {
          closing ??= new Promise<void>((resolve) => {
            stopListening();
            if (unixSocket !== undefined) {
              uws.us_listen_socket_close(unixSocket);
              rmSync(unixPath!, { force: true });
            }
            let timer: NodeJS.Timeout | undefined;
            const finish = (): void => {
              if (timer !== undefined) clearTimeout(timer);
              state.onIdle = undefined;
              closeApp(app);
              resolve();
            };
            if (state.inFlight === 0) {
              finish();
              return;
            }
            state.onIdle = finish;
            timer = setTimeout(finish, graceMs);
          });
          return closing;
        },
      };
    },
  };
}

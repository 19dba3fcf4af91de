// The life of one request on one mounted route: snapshot the uWS request, read the body, run the
// hooks then the handler (staying synchronous until something returns a promise), and write
// exactly one response unless the client has gone. Nothing in here lets an exception escape to
// uWS or to an unhandled rejection.
import { readBody, type BodyListener } from './body-reader.ts';
import { errorBody, type ErrorShape } from './error-shape.ts';
import { HttpError } from './http-error.ts';
import type { RequestContext } from './request-context.ts';
import { declaredBodyLength, snapshotRequest } from './request-snapshot.ts';
import { answerAfterBody, writeResponse } from './response-writer.ts';
import type { Locals, MountedRoute, ResponseValue, Route } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

/** Hears every fault (anything thrown that is not an HttpError); ctx is undefined when the
 * request could not even be read. */
export type ErrorLogger = (error: unknown, route: Route<any>, ctx: RequestContext<any> | undefined) => void;

/** What every route of one server shares. */
export interface ServerState {
  readonly errorShape: ErrorShape;
  readonly onError: ErrorLogger;
  /** `access-control-allow-origin` of every answer, when set. */
  readonly corsOrigin: string | undefined;
  /** Requests accepted and neither answered nor aborted yet (for a graceful close). */
  inFlight: number;
  /** Called when inFlight drops to zero while a close is waiting. */
  onIdle: (() => void) | undefined;
}

export const INTERNAL_ERROR_MESSAGE = 'internal server error';

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

export class RouteRunner<L extends Locals> implements BodyListener<L> {
  constructor(
    private readonly state: ServerState,
    private readonly mounted: MountedRoute<L>,
  ) {}

  /** The uWS route callback. */
  handle(res: HttpResponse, req: HttpRequest): void {
    let ctx: RequestContext<L>;
    try {
      ctx = snapshotRequest(this.mounted, res, req);
    } catch (error) {
      // A request that cannot be read (a path parameter that decodes to a control character, say)
      // is answered once its body is read and dropped: answered at once with the body unread, the
      // connection would close with bytes unread, and the reset often loses the answer through the
      // front.
      answerAfterBody(res, req, this.mounted.maxBodyBytes, (close) => this.writeError(res, undefined, error, close));
      return;
    }
    this.state.inFlight++;
    res.onAborted(() => {
      if (ctx.responded) return;
      ctx.aborted = true;
      this.settle();
    });
    const declared = declaredBodyLength(ctx.headers);
    if (declared === -1) this.run(res, ctx, 0);
    else readBody(res, ctx, declared, this.mounted.maxBodyBytes, this);
  }

  bodyComplete(res: HttpResponse, ctx: RequestContext<L>): void {
    this.run(res, ctx, 0);
  }

  bodyTooLarge(res: HttpResponse, ctx: RequestContext<L>): void {
    const error = new HttpError(413, `request body exceeds ${this.mounted.maxBodyBytes} bytes`);
    this.finish(res, ctx, 413, errorBody(this.state.errorShape, 413, error.message, error.type), undefined, true);
  }

  /** Hooks from index `from` on, then the handler; resumes here after each awaited hook. */
  private run(res: HttpResponse, ctx: RequestContext<L>, from: number): void {
    const hooks = this.mounted.hooks;
    try {
      for (let i = from; i < hooks.length; i++) {
        if (ctx.aborted) return;
        const pending = hooks[i]!(ctx);
        if (isPromise(pending)) {
          pending.then(
            () => this.run(res, ctx, i + 1),
            (error: unknown) => this.fail(res, ctx, error),
          );
          return;
        }
      }
      if (ctx.aborted) return;
      const result = this.mounted.route.handler(ctx);
      if (isPromise(result)) {
        result.then(
          (value) => this.respond(res, ctx, value),
          (error: unknown) => this.fail(res, ctx, error),
        );
        return;
      }
      this.respond(res, ctx, result);
    } catch (error) {
      this.fail(res, ctx, error);
    }
  }

  private respond(res: HttpResponse, ctx: RequestContext<L>, value: ResponseValue): void {
    if (ctx.aborted || ctx.responded) return;
    let body: string;
    try {
      if (value === null || typeof value !== 'object') throw new TypeError('handler returned no response value');
      const raw = value.body;
      body = typeof raw === 'string' ? raw : raw === undefined ? '' : (JSON.stringify(raw) ?? '');
    } catch (error) {
      this.fail(res, ctx, error);
      return;
    }
    this.finish(res, ctx, value.status ?? 200, body, value.headers, false);
  }

  private fail(res: HttpResponse, ctx: RequestContext<L>, error: unknown): void {
    this.writeError(res, ctx, error, false);
  }

  /** HttpError → its status and message; anything else is logged and answered with a bare 500. */
  private writeError(res: HttpResponse, ctx: RequestContext<L> | undefined, error: unknown, close: boolean): void {
    const shape = this.state.errorShape;
    if (error instanceof HttpError) {
      this.finish(
        res,
        ctx,
        error.status,
        errorBody(shape, error.status, error.message, error.type),
        error.headers,
        close,
      );
      return;
    }
    this.log(error, ctx);
    this.finish(res, ctx, 500, errorBody(shape, 500, INTERNAL_ERROR_MESSAGE), undefined, close);
  }

  private finish(
    res: HttpResponse,
    ctx: RequestContext<L> | undefined,
    status: number,
    body: string,
    headers: Readonly<Record<string, string>> | undefined,
    close: boolean,
  ): void {
    if (ctx !== undefined) {
      if (ctx.aborted || ctx.responded) return;
      ctx.responded = true;
    }
    try {
      writeResponse(res, status, body, headers, close, this.state.corsOrigin);
    } catch (error) {
      this.log(error, ctx);
    }
    if (ctx !== undefined) this.settle();
  }

  private settle(): void {
    const state = this.state;
    if (--state.inFlight === 0 && state.onIdle !== undefined) state.onIdle();
  }

  private log(error: unknown, ctx: RequestContext<L> | undefined): void {
    try {
      this.state.onError(error, this.mounted.route, ctx);
    } catch {
      // A failing logger must not take the response down with it.
    }
  }
}

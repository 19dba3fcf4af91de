// Public surface of @pmx/http: the one HTTP layer (uWebSockets.js) every pmx service mounts
// its route modules on, with error shapes, body limits and hooks done once. Header names, rate
// limits and slow clients are the edge's (services/edge, HAProxy).
export {
  createHttpServer,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_CLOSE_GRACE_MS,
  type HttpServer,
  type HttpServerOptions,
  type HttpServerHooks,
  type ListeningHttpServer,
} from './http-server.ts';
export {
  type Route,
  type RouteOptions,
  type Method,
  type Handler,
  type Hook,
  type Locals,
  type ResponseValue,
} from './route.ts';
export { RequestContext, type PeerSource } from './request-context.ts';
export { HttpError, type HttpErrorOptions, type TypedErrorType } from './http-error.ts';
export { errorBody, type ErrorShape } from './error-shape.ts';
export type { ErrorLogger } from './route-runner.ts';
export { forwardedClientIp } from './client-ip.ts';
export {
  uws,
  uwsIsNative,
  closeApp,
  listenExclusive,
  type TemplatedApp,
  type WebSocket,
  type WebSocketBehavior,
} from './uws.ts';
export { ResponseCache } from './response-cache.ts';

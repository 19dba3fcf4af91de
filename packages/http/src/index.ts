// Public surface of @pmx/http: the one HTTP layer (uWebSockets.js) every pmx service mounts
// its route modules on, with error shapes, body limits, hooks and rate limiting done once.
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
  immediate,
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
export { forwardedClientIp, rateLimitKeyOfIp } from './client-ip.ts';
export { createRateLimiter, type RateLimiter, type RateLimiterOptions, type RateDecision } from './rate-limiter.ts';
export {
  rateLimitHook,
  rateLimitGroupsHook,
  type RateLimitGroup,
  type RateLimitHookOptions,
} from './rate-limit-hook.ts';
export { uws, uwsIsNative, closeApp, listenExclusive, type TemplatedApp } from './uws.ts';
export { startHeaderProxy, type HeaderProxy, type HeaderProxyOptions } from './header-proxy.ts';
export { startHeaderProxyThread } from './header-proxy-thread.ts';
export { rewriteHead } from './request-framing.ts';
export { serve, type ServeOptions, type Served } from './serve.ts';

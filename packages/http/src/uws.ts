// Loads uWebSockets.js for ESM code. The npm build (@trufflesuite/uws-js-unofficial) is CommonJS
// whose module.exports is computed at run time, so Node's ESM loader sees no named exports: only
// the default import works. If no prebuilt addon matches this Node ABI the package silently falls
// back to a slow pure-Node implementation; `uwsIsNative` tells which one loaded.
import uWS from '@trufflesuite/uws-js-unofficial';
import type { TemplatedApp } from '@trufflesuite/uws-js-unofficial';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';

export const uws = uWS;

/** True when the native addon loaded (the fallback has no SSLApp). */
export const uwsIsNative: boolean = typeof (uWS as { SSLApp?: unknown }).SSLApp === 'function';

/**
 * The native App has close() (stop listening and drop every open connection) but the shipped
 * typings omit it, and the fallback lacks it.
 */
export function closeApp(app: TemplatedApp): void {
  const closable = app as TemplatedApp & { close?: () => void };
  if (typeof closable.close === 'function') closable.close();
}

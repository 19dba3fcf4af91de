// Loads uWebSockets.js for ESM code. The npm build (@trufflesuite/uws-js-unofficial) is CommonJS
// whose module.exports is computed at run time, so Node's ESM loader sees no named exports: only
// the default import works. If no prebuilt addon matches this Node ABI the package silently falls
// back to a slow pure-Node implementation; `uwsIsNative` tells which one loaded.
import uWS from '@trufflesuite/uws-js-unofficial';
import type { TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';

export type {
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  us_listen_socket,
  WebSocket,
  WebSocketBehavior,
} from '@trufflesuite/uws-js-unofficial';

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

/** LIBUS_LISTEN_EXCLUSIVE_PORT: no SO_REUSEPORT, so a second server on the port is refused. */
const EXCLUSIVE_PORT = 1;

/**
 * Listens on host:port alone. uWS's default opens the port with SO_REUSEPORT, and a second
 * process on it would then share its connections instead of failing to start. The native App
 * takes (host, port, options, cb), though the shipped typings only name (port, options, cb).
 */
export function listenExclusive(
  app: TemplatedApp,
  host: string,
  port: number,
  cb: (socket: us_listen_socket | false) => void,
): void {
  if (!uwsIsNative) {
    app.listen(host, port, cb);
    return;
  }
  (
    app as unknown as {
      listen(host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void): void;
    }
  ).listen(host, port, EXCLUSIVE_PORT, cb);
}

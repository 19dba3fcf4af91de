// Liveness and the small endpoints the official client calls: GET /, /time, /version (all answered
// at once, so a front may share their connections).
import { type Route } from '@pmx/http';

export function healthRoutes(now: () => number = Date.now): Route[] {
  return [
    { method: 'GET', path: '/', handler: () => ({ body: '"OK"' }) },
    { method: 'GET', path: '/time', handler: () => ({ body: String(Math.floor(now() / 1000)) }) },
    { method: 'GET', path: '/version', handler: () => ({ body: '{"version":2}' }) },
  ];
}

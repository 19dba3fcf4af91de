// POST /v1/heartbeats (the official client's path) and POST /heartbeats (the documented one),
// level 2: arms or refreshes the API key's dead-man's switch (orders/heartbeats.ts).

import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyLocals } from '@pmx/auth';
import type { HeartbeatStore } from '../orders/heartbeat-store.ts';
import type { Heartbeats } from '../orders/heartbeats.ts';

export function heartbeatRoutes(heartbeats: Heartbeats, store: HeartbeatStore, before: Hook<ApiKeyLocals>[]): Route<ApiKeyLocals>[] {
  const handler = async (ctx: Parameters<Route<ApiKeyLocals>['handler']>[0]) => {
    const body = ctx.rawBody.length === 0 ? {} : ctx.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the body must be {"heartbeat_id": "…"}');
    const { heartbeat_id: id = '', ...rest } = body as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new HttpError(400, `unknown field ${Object.keys(rest)[0]}`);
    if (typeof id !== 'string') throw new HttpError(400, 'heartbeat_id must be a string');
    const apiKey = ctx.locals.apiKey!.apiKey;
    const beat = heartbeats.beat(apiKey, id);
    if (!beat.ok) throw new HttpError(400, beat.error);
    // A new switch is stored before it is answered, so a restart re-arms it.
    if (beat.armed) {
      try {
        await store.save(apiKey, beat.heartbeatId);
      } catch {
        heartbeats.disarm(apiKey);
        throw new HttpError(503, 'the heartbeat switch could not be stored, so it is not armed: retry shortly');
      }
    }
    return { body: { heartbeat_id: beat.heartbeatId } };
  };
  return ['/v1/heartbeats', '/heartbeats'].map((path) => ({ method: 'POST', path, options: { before }, handler }));
}

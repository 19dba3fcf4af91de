// POST /v1/heartbeats (the official client's path) and POST /heartbeats (the documented one),
// level 2: arms or refreshes the API key's dead-man's switch (orders/heartbeats.ts).

import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyLocals } from '@pmx/auth';

/** What a heartbeat gets: the next id, or why not (`unavailable`: 503, retry). */
export interface HeartbeatSwitch {
  beat(
    apiKey: string,
    id: string,
  ): Promise<{ ok: true; heartbeatId: string } | { ok: false; error: string; unavailable?: true }>;
}

export function heartbeatRoutes(heartbeats: HeartbeatSwitch, before: Hook<ApiKeyLocals>[]): Route<ApiKeyLocals>[] {
  const handler = async (ctx: Parameters<Route<ApiKeyLocals>['handler']>[0]) => {
    const body = ctx.rawBody.length === 0 ? {} : ctx.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new HttpError(400, 'the body must be {"heartbeat_id": "…"}');
    const { heartbeat_id: id = '', ...rest } = body as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new HttpError(400, `unknown field ${Object.keys(rest)[0]}`);
    if (typeof id !== 'string') throw new HttpError(400, 'heartbeat_id must be a string');
    const beat = await heartbeats.beat(ctx.locals.apiKey!.apiKey, id);
    if (!beat.ok) throw new HttpError(beat.unavailable ? 503 : 400, beat.error);
    return { body: { heartbeat_id: beat.heartbeatId } };
  };
  return ['/v1/heartbeats', '/heartbeats'].map((path) => ({ method: 'POST', path, options: { before }, handler }));
}

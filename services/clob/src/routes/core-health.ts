// GET /health on a core's port: 200 while this core owns the shards (the edge sends the operator
// API to it, gateways link to it), 503 on a standby.
import { HttpError, type Route } from '@pmx/http';
import type { CoreStatus } from '../link/core-protocol.ts';

export function coreHealthRoutes(active: () => boolean, status: () => CoreStatus): Route[] {
  return [
    {
      method: 'GET',
      path: '/health',
      handler: () => {
        if (!active()) throw new HttpError(503, 'standby: another core owns the shards');
        return { body: { active: true, ...status() } };
      },
    },
  ];
}

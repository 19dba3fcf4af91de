// GET /: the health check, open to every caller (the allowlist guards the account reads only).

import type { Route } from '@pmx/http';

const OK = JSON.stringify({ data: 'OK' });

export const healthRoutes: Route[] = [{ method: 'GET', path: '/', handler: () => ({ body: OK }) }];

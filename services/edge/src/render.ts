// Renders infra/haproxy/edge.cfg.mustache from the edge's config: the one place HAProxy's config
// text is made (mustache with HTML escaping off: the values are HAProxy's, not a page's).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Mustache from 'mustache';
import type { EdgeConfig } from './config.ts';

const TEMPLATE = new URL('../../../infra/haproxy/edge.cfg.mustache', import.meta.url);

/** Where the edge listens, per public service and for the operator port: host:port, or fd@N. */
export interface EdgeBinds {
  clob: string;
  catalog: string;
  data: string;
  stats: string;
}

type Shape = 'simple' | 'typed';

/** An error body in a service's contract shape (as @pmx/http's errorBody writes it). */
function errorJson(shape: Shape, status: number, message: string): string {
  if (message.includes("'") || message.includes('"') || message.includes('\\'))
    throw new Error(`edge: error message must not hold quotes or backslashes: ${message}`);
  return shape === 'simple'
    ? JSON.stringify({ error: message })
    : JSON.stringify({ type: status === 404 ? 'not found error' : 'bad request', error: message });
}

/** The answers HAProxy itself makes once a request is read, by status. */
const EDGE_ERRORS: [number, string][] = [
  [400, 'bad request'],
  [403, 'forbidden'],
  [404, 'not found'],
  [405, 'method not allowed'],
  [408, 'request timeout: the request did not arrive whole in time'],
  [410, 'gone'],
  [413, 'request body too large'],
  [425, 'too early'],
  [429, 'too many requests'],
  [500, 'internal error at the edge'],
  [501, 'not implemented'],
  [502, 'the service gave no valid answer; retry shortly'],
  [503, 'the service is not reachable; retry shortly'],
  [504, 'the service did not answer in time'],
];

/** The contract's auth headers, renamed from SVC_X to SVC-X on the way in. */
export const AUTH_HEADERS = ['ADDRESS', 'API_KEY', 'PASSPHRASE', 'TIMESTAMP', 'SIGNATURE', 'NONCE'].map(
  (name) => `SVC_${name}`,
);

/** uWS 20.30 answers at most 48 header fields; the edge adds X-Forwarded-For and maybe Host. */
const MAX_HEADER_FIELDS = 45;

const CLOB_ROUTES = [
  { name: 'GET /', index: 1, cap: 'health', condition: 'METH_GET health' },
  { name: 'GET /book', index: 2, cap: 'book', condition: 'METH_GET { path /book }' },
  { name: 'POST /books', index: 3, cap: 'books', condition: 'METH_POST { path /books }' },
  { name: 'GET /price', index: 4, cap: 'price', condition: 'METH_GET { path /price }' },
  { name: 'POST /prices', index: 5, cap: 'prices', condition: 'METH_POST { path /prices }' },
  { name: 'POST /midpoints', index: 6, cap: 'prices', condition: 'METH_POST { path /midpoints }' },
  { name: 'POST /spreads', index: 7, cap: 'prices', condition: 'METH_POST { path /spreads }' },
  { name: 'POST /last-trades-prices', index: 8, cap: 'prices', condition: 'METH_POST { path /last-trades-prices }' },
  { name: 'GET /midpoint', index: 9, cap: 'midpoint', condition: 'METH_GET { path /midpoint }' },
  { name: 'GET /prices-history', index: 10, cap: 'pricesHistory', condition: 'METH_GET { path /prices-history }' },
  {
    name: 'POST /batch-prices-history',
    index: 11,
    cap: 'batchPricesHistory',
    condition: 'METH_POST { path /batch-prices-history }',
  },
  { name: 'GET /trades', index: 12, cap: 'trades', condition: 'METH_GET { path /trades }' },
  { name: 'POST /auth/api-key', index: 13, cap: 'apiKeys', condition: 'METH_POST { path /auth/api-key }' },
] as const;

const CATALOG_ROUTES = [
  { name: 'GET /events', index: 1, cap: 'events', condition: 'METH_GET events' },
  { name: 'GET /markets', index: 2, cap: 'markets', condition: 'METH_GET markets' },
  { name: 'GET /events and GET /markets', index: 3, cap: 'listings', condition: 'METH_GET listing' },
  { name: 'GET /tags', index: 4, cap: 'tags', condition: 'METH_GET tags' },
  { name: 'GET /public-search', index: 5, cap: 'search', condition: 'METH_GET search' },
] as const;

function shapeView(shape: Shape, config: EdgeConfig) {
  return {
    name: shape,
    noHost: errorJson(shape, 400, 'a request needs exactly one Host header'),
    tooManyFields: errorJson(shape, 431, `too many header fields: at most ${MAX_HEADER_FIELDS}`),
    headTooLarge: errorJson(shape, 431, `request head too large: at most ${config.maxHeadBytes} bytes`),
    unknownMethod: errorJson(shape, 501, 'method not implemented'),
  };
}

/** host:port as HAProxy reads it (the port after the last colon, so IPv6 needs no brackets). */
export function hostPort(host: string, port: number): string {
  return `${host}:${port}`;
}

/** HAProxy server lines' names and addresses: clob1, clob2 … */
function servers(name: string, addresses: readonly string[]): { name: string; address: string }[] {
  return addresses.map((address, i) => ({ name: `${name}${i + 1}`, address }));
}

export function renderEdgeConfig(config: EdgeConfig, binds: EdgeBinds): string {
  const service = <C extends Record<string, number>>(
    s: { name: string; servers: string[]; maxBodyBytes: number; caps: C },
    bind: string,
  ) => ({
    ...s.caps,
    bind,
    servers: servers(s.name, s.servers),
    // One server is never taken out (its own answers say what is wrong); replicas are checked.
    checked: s.servers.length > 1,
    maxBodyBytes: s.maxBodyBytes,
  });
  const routes = <C extends Record<string, number>>(
    list: readonly { name: string; index: number; cap: keyof C & string; condition: string }[],
    caps: C,
  ) => list.map((route) => ({ ...route, cap: caps[route.cap] }));
  const view = {
    ...config,
    bufferBytes: Math.max(16 * 1024, 2 * config.maxHeadBytes),
    maxHeaderFields: MAX_HEADER_FIELDS,
    trustedProxies: config.trustedProxies.length === 0 ? undefined : config.trustedProxies.join(' '),
    simpleErrors: EDGE_ERRORS.map(([status, message]) => ({ status, body: errorJson('simple', status, message) })),
    typedErrors: EDGE_ERRORS.map(([status, message]) => ({ status, body: errorJson('typed', status, message) })),
    shapes: [shapeView('simple', config), shapeView('typed', config)],
    authHeaders: AUTH_HEADERS.map((underscore) => ({ underscore, dash: underscore.replaceAll('_', '-') })),
    clob: service(config.clob, binds.clob),
    catalog: service(config.catalog, binds.catalog),
    data: service(config.data, binds.data),
    clobRoutes: routes(CLOB_ROUTES, config.clob.caps),
    catalogRoutes: routes(CATALOG_ROUTES, config.catalog.caps),
    services: (['clob', 'catalog', 'data'] as const).map((name) => ({
      name,
      shape: name === 'catalog' ? 'typed' : 'simple',
      loopSocket: join(config.runDir, `${name}-h2.sock`),
    })),
    statsBind: binds.stats,
    cores: config.coreServers.length === 0 ? undefined : { servers: servers('core', config.coreServers) },
    history:
      config.historyServers.length === 0
        ? undefined
        : { servers: servers('history', config.historyServers), checked: config.historyServers.length > 1 },
  };
  return Mustache.render(readFileSync(TEMPLATE, 'utf8'), view, {}, { escape: (value: unknown) => String(value) });
}

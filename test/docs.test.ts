// The reference cannot drift from the code: every route a service registers has a row in its
// reference page (and every row a route), every environment variable a config module reads has a
// row in a settings table, and every relative link in README.md, docs/ and bench/README.md resolves.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, endpointRows, markdownFiles, read, settingRows, tableRows } from './docs-markdown.ts';
import {
  otherVariables,
  registeredRoutes,
  ROOT,
  routesIn,
  serviceVariables,
  services,
  variablesIn,
} from './docs-sources.ts';

const page = (service: string) => `docs/reference/${service}.md`;
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
/** The service's page, and every other reference page whose title names the service (`services/clob`). */
const pagesOf = (service: string) => [
  page(service),
  ...markdownFiles().filter(
    (f) =>
      f.startsWith('docs/reference/') &&
      f !== page(service) &&
      read(f).split('\n', 1)[0]!.includes(`\`services/${service}\``),
  ),
];

describe('the docs check reads', () => {
  it('routes written as literals, as a template over a list of kinds, and as a map over paths', () => {
    const source = `
      // { method: 'GET', path: '/commented-out' }
      const KINDS = [{ path: 'tags' }, { path: 'events' }];
      const routes = [
        { method: 'GET', path: '/book', handler },
        { method: 'DELETE', path: '/data/order/:id', handler },
        ...KINDS.map((kind) => ({ method: 'PATCH', path: \`/operator/\${kind.path}/:id\`, handler })),
        ...['/v1/heartbeats', '/heartbeats'].map((path) => ({ method: 'POST', path, handler })),
      ];`;
    expect(routesIn(source, 'x.ts').map(key)).toEqual([
      'GET /book',
      'DELETE /data/order/{id}',
      'PATCH /operator/tags/{id}',
      'PATCH /operator/events/{id}',
      'POST /v1/heartbeats',
      'POST /heartbeats',
    ]);
  });

  it('a route whose path it cannot read as a failure naming where it is', () => {
    expect(() => routesIn(`\n{ method: 'GET', path: pathFor(x), handler }`, 'y.ts')).toThrow(/y\.ts:2: cannot read/);
  });

  it('endpoint and settings rows from tables, and variables from text', () => {
    const doc = [
      '| method | path | auth |',
      '| --- | --- | --- |',
      '| `GET` | `/book` | — |',
      '| POST | `/order` | L2 |',
      '',
      '| variable | default |',
      '| --- | --- |',
      '| `PMX_CLOB_PORT` | `8080` |',
      '| `PMX_A`, `PMX_B` | shared rows do not count |',
    ].join('\n');
    expect(endpointRows(doc)).toEqual([
      { method: 'GET', path: '/book' },
      { method: 'POST', path: '/order' },
    ]);
    expect(settingRows(doc)).toEqual(['PMX_CLOB_PORT']);
    expect(tableRows(doc)).toHaveLength(6);
    expect(variablesIn("envInt(env, 'PMX_SHARDS', 2); // PMX_ alone is a prefix")).toEqual(['PMX_SHARDS']);
  });
});

describe('the reference', () => {
  it.each(services())('documents every route of services/%s, one row each, and no route it lacks', (service) => {
    expect(existsSync(join(ROOT, page(service))), `${page(service)} is missing`).toBe(true);
    const routes = registeredRoutes(service);
    const documented = new Set(
      pagesOf(service)
        .flatMap((f) => endpointRows(read(f)))
        .map(key),
    );
    const missing = routes.filter((r) => !documented.has(key(r))).map((r) => `${key(r)} (${r.where})`);
    expect(missing, `routes without a row in ${pagesOf(service).join(' or ')}`).toEqual([]);
    const served = new Set(routes.map(key));
    expect(
      [...documented].filter((row) => !served.has(row)),
      `rows in ${pagesOf(service).join(' or ')} no route serves`,
    ).toEqual([]);
  });

  it('finds the routes the services register (the trading API has dozens)', () => {
    const all = services().flatMap(registeredRoutes).map(key);
    expect(all).toEqual(
      expect.arrayContaining(['POST /order', 'GET /book', 'GET /markets/{id}', 'PATCH /operator/tags/{id}']),
    );
  });

  it.each(services())('has a settings row for every variable the config of services/%s reads', (service) => {
    const rows = new Set(settingRows(read(page(service))));
    const missing = serviceVariables(service).filter((variable) => !rows.has(variable));
    expect(missing, `variables without a row in ${page(service)}'s settings table`).toEqual([]);
  });

  it('has no settings row for a variable nothing reads', () => {
    const readByCode = new Set([
      ...services().flatMap(serviceVariables),
      ...otherVariables().map(({ variable }) => variable),
    ]);
    const stale = markdownFiles()
      .filter((f) => f.startsWith('docs/reference/'))
      .flatMap((f) => settingRows(read(f)).map((variable) => ({ variable, f })))
      .filter(({ variable }) => !readByCode.has(variable));
    expect(stale.map(({ variable, f }) => `${variable} (${f})`)).toEqual([]);
  });

  it('has a settings row somewhere for every variable the packages and infra scripts read', () => {
    const rows = new Set(
      markdownFiles()
        .filter((f) => f.startsWith('docs/reference/'))
        .flatMap((f) => settingRows(read(f))),
    );
    const missing = otherVariables().filter(({ variable }) => !rows.has(variable));
    expect(missing.map(({ variable, where }) => `${variable} (${where})`)).toEqual([]);
  });

  it('reads the services’ variables through @pmx/config too (the connection settings, the operator key)', () => {
    expect(serviceVariables('clob')).toEqual(
      expect.arrayContaining(['PMX_PG_URL', 'PMX_OPERATOR_KEY', 'PMX_CLOB_PORT']),
    );
    expect(serviceVariables('catalog')).toEqual(expect.arrayContaining(['PMX_CORS_ORIGIN', 'PMX_CATALOG_PORT']));
  });
});

describe('the links', () => {
  it('of README.md, docs/ and bench/README.md all resolve, anchors included', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'bench/README.md']));
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });
});

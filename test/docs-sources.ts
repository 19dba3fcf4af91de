// What the docs check reads from the code, as text: the routes every service registers
// (services/*/src/routes/*.ts, lists of { method, path, handler }) and the environment variables
// the config modules read. Read as text so that a new service, route module or setting is picked
// up without importing any service; a route written in a form this reader does not know fails the
// check rather than go unseen.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../', import.meta.url).pathname;

export interface RouteSource {
  method: string;
  /** As the docs write it: `/data/order/{id}` for the route's `/data/order/:id`. */
  path: string;
  /** file:line of the route's `method:`. */
  where: string;
}

const HTTP_METHOD = /\bmethod:\s*'([A-Z]+)'/g;

/** Source without comments (a `method:` in a comment is not a route), line breaks kept for line numbers. */
export function stripComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** String literals of `prop: '…'` in the file that are not paths themselves (the parts a template joins). */
function propertyValues(text: string, prop: string): string[] {
  return [...text.matchAll(new RegExp(`\\b${prop}:\\s*'([^'/][^']*)'`, 'g'))].map((m) => m[1]!);
}

/** Every path a route's `path` expression can take, or undefined for a form this reader does not know. */
function pathsOf(text: string, at: number, objectText: string): string[] | undefined {
  const literal = /\bpath:\s*'([^']*)'/.exec(objectText);
  if (literal !== null) return [literal[1]!];
  const template = /\bpath:\s*`([^`]*)`/.exec(objectText);
  const mappedOver = template === null ? null : /^([^$]*)\$\{\s*(\w+)\s*\}([^$]*)$/.exec(template[1]!);
  if (mappedOver !== null) {
    // const steps = ['a', 'b']; steps.map((step) => ({ path: `/x/${step}` })): one path per element.
    const [, head, name, tail] = mappedOver;
    const list = [...text.slice(0, at).matchAll(new RegExp(`\\b(\\w+)\\.map\\(\\(${name}\\)`, 'g'))].pop();
    const array = list && new RegExp(`\\b${list[1]}(?::[^=]*)?=\\s*\\[([^\\]]*)\\]`).exec(text);
    if (!array) return undefined;
    return [...array[1]!.matchAll(/'([^']*)'/g)].map((m) => `${head}${m[1]}${tail}`);
  }
  if (template !== null) {
    // `/operator/${kind.path}`: one path per value the property takes in this file.
    const parts = template[1]!.split(/\$\{\s*\w+\.(\w+)\s*\}/);
    if (parts.length !== 3) return undefined;
    const values = propertyValues(text, parts[1]!);
    return values.length === 0 ? undefined : values.map((value) => `${parts[0]}${value}${parts[2]}`);
  }
  if (/\bpath\s*[,}\n]/.test(objectText)) {
    // ['/a', '/b'].map((path) => ({ method, path, … })): the array just before the route; or
    // const route = (path: string, …) => ({ method, path, … }) called as route('/a', …).
    const before = text.slice(0, at);
    const mapped = [...before.matchAll(/\[([^[\]]*)\]\.map\(\(path\)/g)].pop();
    const builder = [...before.matchAll(/\bconst (\w+) = \(\s*path: string/g)].pop();
    if (builder !== undefined && (mapped === undefined || builder.index > mapped.index))
      return [...text.matchAll(new RegExp(`\\b${builder[1]}\\(\\s*'([^']*)'`, 'g'))].map((m) => m[1]!);
    if (mapped === undefined) return undefined;
    return [...mapped[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
  }
  return undefined;
}

/** The routes of one route module's source; throws on a route whose path it cannot read. */
export function routesIn(source: string, file: string): RouteSource[] {
  const text = stripComments(source);
  const starts = [...text.matchAll(HTTP_METHOD)];
  return starts.flatMap((match, i) => {
    const end = starts[i + 1]?.index ?? text.length;
    const objectText = text.slice(match.index, Math.min(end, match.index + 400));
    const where = `${file}:${lineOf(text, match.index)}`;
    const paths = pathsOf(text, match.index, objectText);
    if (paths === undefined || paths.length === 0)
      throw new Error(`${where}: cannot read this route's path; teach test/docs-sources.ts its form`);
    return paths.map((path) => ({ method: match[1]!, path: path.replace(/:(\w+)/g, '{$1}'), where }));
  });
}

/** Service folder names (services/<name>), each documented in docs/reference/<name>.md. */
export function services(): string[] {
  return readdirSync(join(ROOT, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function sourcesUnder(dir: string): string[] {
  try {
    return readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

export function registeredRoutes(service: string): RouteSource[] {
  return sourcesUnder(`services/${service}/src/routes`).flatMap((file) =>
    routesIn(readFileSync(join(ROOT, file), 'utf8'), file),
  );
}

const VARIABLE = /\bPMX_[A-Z0-9_]*[A-Z0-9]\b/g;

export function variablesIn(text: string): string[] {
  return [...new Set(text.match(VARIABLE) ?? [])];
}

/** Bodies of the functions a folder's sources define, by name (for what a config module calls). */
function functionBodies(dir: string): Map<string, string> {
  const bodies = new Map<string, string>();
  for (const file of sourcesUnder(dir)) {
    const text = stripComments(readFileSync(join(ROOT, file), 'utf8'));
    for (const match of text.matchAll(/\bfunction\s+(\w+)\s*[(<]/g)) {
      const open = text.indexOf('{', closingParen(text, text.indexOf('(', match.index)));
      let depth = 0;
      let end = open;
      for (; end < text.length; end++) {
        if (text[end] === '{') depth++;
        else if (text[end] === '}' && --depth === 0) break;
      }
      bodies.set(match[1]!, text.slice(open, end + 1));
    }
  }
  return bodies;
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

const PUBLIC_SERVICES = ['clob', 'catalog', 'data'];

/**
 * What `serviceAddress(env, 'svc')` reads: PMX_SVC_HOST, _PORT, _DIRECT_PORT, _LISTEN_HOST and _SOCKET (names it
 * builds, so they are not in its source as text); every public service's for a name not written out.
 */
function addressVariables(code: string): string[] {
  return [...code.matchAll(/\bserviceAddress\(\s*\w+\s*,\s*(?:'(\w+)'|\w+)\s*\)/g)].flatMap((call) =>
    (call[1] === undefined ? PUBLIC_SERVICES : [call[1]]).flatMap((service) =>
      ['HOST', 'PORT', 'DIRECT_PORT', 'LISTEN_HOST', 'SOCKET'].map((part) => `PMX_${service.toUpperCase()}_${part}`),
    ),
  );
}

/**
 * The variables a service's config module reads: its own, and those of every @pmx/config
 * function it calls, and of what those call in turn.
 */
export function serviceVariables(service: string): string[] {
  const file = join(ROOT, `services/${service}/src/config.ts`);
  let text: string;
  try {
    text = stripComments(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const bodies = functionBodies('packages/config/src');
  const found = new Set(variablesIn(text));
  const seen = new Set<string>();
  const visit = (code: string) => {
    for (const name of code.match(/\b\w+\b/g) ?? []) {
      const body = bodies.get(name);
      if (body === undefined || seen.has(name)) continue;
      seen.add(name);
      for (const variable of variablesIn(body)) found.add(variable);
      visit(body);
    }
  };
  visit(text);
  for (const variable of addressVariables(text)) found.add(variable);
  return [...found].sort();
}

/** Variables read outside the services' config modules: packages' config modules, @pmx/config, the infra scripts. */
export function otherVariables(): { variable: string; where: string }[] {
  const files = [
    ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}/src/config.ts`),
    ...sourcesUnder('packages/config/src'),
    ...readdirSync(join(ROOT, 'infra'))
      .filter((name) => name.endsWith('.sh'))
      .map((name) => `infra/${name}`),
  ];
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      return [];
    }
    return variablesIn(text).map((variable) => ({ variable, where: file }));
  });
}

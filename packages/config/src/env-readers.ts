// Typed readers over an explicitly passed environment object; a bad value throws a
// ConfigError that names the variable, so a misconfigured service fails at start.

import { throttledLog } from './throttled-log.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`config: ${variable} ${message}`);
  }
}

/** Unset or empty (after trimming) counts as absent. */
function present(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  return value === '' ? undefined : value;
}

export function envString(env: Env, name: string, fallback: string): string {
  return present(env, name) ?? fallback;
}

/** An integer; with `range`, one inside it (both ends included). */
export function envInt(env: Env, name: string, fallback: number, range?: { min?: number; max?: number }): number {
  const parsed = readInt(env, name, fallback);
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range ?? {};
  if (parsed < min || parsed > max) throw new ConfigError(name, `must be from ${min} to ${max}, got ${parsed}`);
  return parsed;
}

function readInt(env: Env, name: string, fallback: number): number {
  const value = present(env, name);
  if (value === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(value)) {
    throw new ConfigError(name, `must be an integer, got ${JSON.stringify(env[name])}`);
  }
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) {
    throw new ConfigError(name, `is outside the safe integer range: ${value}`);
  }
  return parsed;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const value = present(env, name);
  if (value === undefined) return fallback;
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new ConfigError(name, `must be one of true/false/1/0/yes/no/on/off, got ${JSON.stringify(env[name])}`);
}

/** Comma-separated; items are trimmed and empty items dropped. */
export function envList(env: Env, name: string, fallback: readonly string[]): string[] {
  const value = present(env, name);
  if (value === undefined) return [...fallback];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A string that must match `pattern` (described by `what` in the error). */
export function envMatch(env: Env, name: string, fallback: string, pattern: RegExp, what: string): string {
  const value = envString(env, name, fallback);
  if (!pattern.test(value)) throw new ConfigError(name, `must be ${what}, got ${JSON.stringify(value)}`);
  return value;
}

/** The development operator key every service falls back to on a loopback host. */
export const DEV_OPERATOR_KEY = 'pmx-dev-operator-key';
const MIN_OPERATOR_KEY = 16;

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * PMX_OPERATOR_KEY, the operator API's bearer token. The public development default (and any key
 * shorter than 16 characters) is only taken while the service listens on a loopback address:
 * on any other, anyone who read the README could mint collateral.
 */
export function envOperatorKey(env: Env, host: string): string {
  const key = envString(env, 'PMX_OPERATOR_KEY', DEV_OPERATOR_KEY);
  if (!isLoopbackHost(host) && (key === DEV_OPERATOR_KEY || key.length < MIN_OPERATOR_KEY)) {
    throw new ConfigError(
      'PMX_OPERATOR_KEY',
      `must be set to a secret of at least ${MIN_OPERATOR_KEY} characters when the service listens on ${host} (not a loopback address)`,
    );
  }
  return key;
}

/**
 * `PMX_CORS_ORIGIN`: the origin browsers may call a service from (HttpServerOptions.corsOrigin):
 * `*` (the default: any; the APIs authenticate by headers, never cookies), one origin such as
 * `https://app.example.com`, or `off` (no CORS headers). Undefined for `off`.
 */
export function envCorsOrigin(env: Env): string | undefined {
  const value = envMatch(
    env,
    'PMX_CORS_ORIGIN',
    '*',
    /^(?:\*|off|https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?)$/,
    '*, off or an origin such as https://app.example.com',
  );
  return value === 'off' ? undefined : value;
}

/**
 * A connection URL with its password hidden, for messages: everything between `//user:` and the
 * last `@` (a password may hold `/`, `+`, `=` — `openssl rand -base64` output — or `@`).
 */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):.*@/, '//$1:***@');
}

/**
 * Logs a client's connection errors (ioredis retries an unreachable server on its own, silently),
 * at most one every 10 s: `<who> cannot reach <url, password hidden> (retrying): <error>`.
 */
export function reportConnectionErrors(
  client: { on(event: 'error', listener: (error: Error) => void): unknown },
  who: string,
  url: string,
  log: (line: string) => void,
): void {
  const report = throttledLog(log);
  client.on('error', (error: Error) => report(`${who} cannot reach ${redactUrl(url)} (retrying): ${error.message}`));
}

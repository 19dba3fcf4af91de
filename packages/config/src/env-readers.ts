// Typed readers over an explicitly passed environment object; a bad value throws a
// ConfigError that names the variable, so a misconfigured service fails at start.

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly variable: string, message: string) {
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

export function envInt(env: Env, name: string, fallback: number): number {
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

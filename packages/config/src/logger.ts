// The one log of every pmx process: pino JSON lines on standard output (pretty when it is a
// terminal), one child per component, its level set once from the service's config.
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { envMatch, type Env } from './env-readers.ts';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `PMX_LOG_LEVEL`: one of pino's levels, `info` unless set. */
export function envLogLevel(env: Env): LogLevel {
  return envMatch(
    env,
    'PMX_LOG_LEVEL',
    'info',
    new RegExp(`^\\s*(?:${LOG_LEVELS.join('|')})\\s*$`, 'i'),
    LOG_LEVELS.join(', '),
  )
    .trim()
    .toLowerCase() as LogLevel;
}

// process.stdout is written synchronously on Linux (files, pipes and terminals), so a line logged
// just before an exit is not lost; a worker thread's stdout reaches the main thread's.
const root = pino(
  {
    level: 'info',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  process.stdout.isTTY ? pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l' }) : process.stdout,
);
const components = new Map<string, Logger>();
// A log that cannot be written (its reader went away, a full disk) does not stop the service, as
// it does not with console.log; a command line that must know listens for the error itself.
process.stdout.on('error', () => {});

/** The log of one component (`clob`, `clob.shards`, `ingest` …); the same object for the same name. */
export function logger(component: string): Logger {
  let log = components.get(component);
  if (log === undefined) {
    log = root.child({ name: component });
    components.set(component, log);
  }
  return log;
}

/** Sets the level of every component's log, those made already included. */
export function setLogLevel(level: LogLevel): void {
  root.level = level;
  for (const log of components.values()) log.level = level;
}

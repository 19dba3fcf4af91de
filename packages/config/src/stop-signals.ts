// How a service stops on SIGINT/SIGTERM, alike in every service: the first signal starts its
// graceful close and says so; a second signal, or a close still running after the deadline, exits
// at once and says why, so a stop waiting on a stalled Postgres or a Redis that went away cannot
// hang; a finished close says how long it took.

import { logger } from './logger.ts';

export interface StopOptions {
  /** Longest a graceful close may take before the process exits 1 anyway; default 20 s. */
  deadlineMs?: number;
  /** Where the lines go; default the service's log. */
  log?: (line: string) => void;
  /** How the process ends; default process.exit (replaced in tests). */
  exit?: (code: number) => void;
  /** What to listen to; default the process (replaced in tests). */
  signals?: Pick<NodeJS.Process, 'on'>;
}

export interface Stopper {
  /**
   * Starts the close (once; later calls join it) and exits when it is done: with `code`, or with
   * the first non-zero code asked for (a fault's status stands over a signal's 0), or 1 if the
   * close fails.
   */
  stop(code: number, why: string): void;
}

export function handleStopSignals(service: string, close: () => Promise<void>, options: StopOptions = {}): Stopper {
  const log = options.log ?? ((line: string) => logger(service).info(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const deadlineMs = options.deadlineMs ?? 20_000;
  let exitCode = 0;
  let stopping = false;
  const stopper: Stopper = {
    stop(code, why) {
      if (code !== 0 && exitCode === 0) exitCode = code;
      if (stopping) return;
      stopping = true;
      const started = performance.now();
      log(`${why}, stopping`);
      const timer = setTimeout(() => {
        log(`still stopping after ${Math.round(deadlineMs / 1000)} s; exiting without finishing`);
        exit(exitCode || 1);
      }, deadlineMs);
      timer.unref();
      close().then(
        () => {
          clearTimeout(timer);
          log(`stopped in ${Math.round(performance.now() - started)} ms`);
          exit(exitCode);
        },
        (error: unknown) => {
          clearTimeout(timer);
          log(`stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          exit(exitCode || 1);
        },
      );
    },
  };
  const signals = options.signals ?? process;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    signals.on(signal, () => {
      if (!stopping) return stopper.stop(0, signal);
      log(`${signal} again while stopping; exiting now`);
      exit(exitCode || 1);
    });
  }
  return stopper;
}

// The exec args for a worker thread that loads this repository's TypeScript. Where the process
// preloads tsx (`node --import tsx …` or the tsx CLI), none are given, so the worker inherits the
// process's flags as Node does by default: --cpu-prof reaches every thread, and V8 flags such as
// --max-old-space-size, which Node refuses in an explicit worker execArgv, do not stop it. Test
// runners load TypeScript their own way, which workers do not inherit: there tsx's loader is added.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const LOADER_FLAGS = new Set(['--import', '--loader', '--experimental-loader']);
const TSX_SPECIFIER = /^tsx(\/esm)?$|[\\/]node_modules[\\/]tsx[\\/]/;

/** True when the exec args already preload tsx, which workers then inherit. */
export function preloadsTsx(execArgv: readonly string[]): boolean {
  return execArgv.some((arg, i) => {
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (!LOADER_FLAGS.has(flag)) return false;
    const specifier = inline ?? execArgv[i + 1] ?? '';
    return TSX_SPECIFIER.test(specifier);
  });
}

/** Exec args for `new Worker` / Piscina: undefined means inherit the process's. */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] | undefined {
  if (preloadsTsx(execArgv)) return undefined;
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...execArgv, '--import', loader];
}

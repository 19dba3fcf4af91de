// The exec args for a worker thread that loads this repository's TypeScript: the process's own
// (so flags such as --cpu-prof or --max-semi-space-size reach every thread, as Node does when a
// worker is given none), plus tsx's loader unless the process already preloads it (`node --import
// tsx …` or the tsx CLI). Test runners load TypeScript their own way, which workers do not inherit.
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

export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  if (preloadsTsx(execArgv)) return [...execArgv];
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...execArgv, '--import', loader];
}

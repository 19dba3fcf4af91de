import { describe, expect, it } from 'vitest';
import { preloadsTsx, workerExecArgv } from './worker-exec-argv.ts';

describe('workerExecArgv', () => {
  it('recognises tsx preloaded by `node --import tsx` and by the tsx CLI', () => {
    expect(preloadsTsx(['--import', 'tsx'])).toBe(true);
    expect(preloadsTsx(['--import=tsx/esm'])).toBe(true);
    expect(preloadsTsx(['--require', '/r/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///r/node_modules/tsx/dist/loader.mjs'])).toBe(true);
    expect(preloadsTsx(['--cpu-prof', '--import', './other.mjs'])).toBe(false);
    expect(preloadsTsx([])).toBe(false);
  });

  it("keeps the process's flags and adds tsx's loader only where it is missing", () => {
    expect(workerExecArgv(['--import', 'tsx', '--cpu-prof'])).toEqual(['--import', 'tsx', '--cpu-prof']);
    const added = workerExecArgv(['--cpu-prof', '--max-semi-space-size=64']);
    expect(added.slice(0, 3)).toEqual(['--cpu-prof', '--max-semi-space-size=64', '--import']);
    expect(added[3]).toMatch(/^file:\/\/.*[\\/]node_modules[\\/].*tsx.*\.(m?js|cjs)$/);
    expect(added).toHaveLength(4);
  });
});

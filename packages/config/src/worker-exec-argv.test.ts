import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { preloadsTsx, workerExecArgv } from './worker-exec-argv.ts';

describe('workerExecArgv', () => {
  it('recognises tsx preloaded by `node --import tsx` and by the tsx CLI', () => {
    expect(preloadsTsx(['--import', 'tsx'])).toBe(true);
    expect(preloadsTsx(['--import=tsx/esm'])).toBe(true);
    expect(
      preloadsTsx([
        '--require',
        '/r/node_modules/tsx/dist/preflight.cjs',
        '--import',
        'file:///r/node_modules/tsx/dist/loader.mjs',
      ]),
    ).toBe(true);
    expect(preloadsTsx(['--cpu-prof', '--import', './other.mjs'])).toBe(false);
    expect(preloadsTsx([])).toBe(false);
  });

  it("lets workers inherit the process's flags where tsx is preloaded, and adds tsx's loader where it is not", () => {
    expect(workerExecArgv(['--import', 'tsx', '--cpu-prof'])).toBeUndefined();
    const added = workerExecArgv(['--conditions=development'])!;
    expect(added.slice(0, 2)).toEqual(['--conditions=development', '--import']);
    expect(added[2]).toMatch(/^file:\/\/.*[\\/]node_modules[\\/].*tsx.*\.(m?js|cjs)$/);
    expect(added).toHaveLength(3);
  });

  it('starts a worker under a V8 flag that Node refuses in an explicit worker execArgv', async () => {
    const script = `
      const { Worker } = require('node:worker_threads');
      const w = new Worker("require('node:worker_threads').parentPort.postMessage(process.execArgv)", { eval: true, execArgv: JSON.parse(process.argv[1]) ?? undefined });
      w.once('message', (m) => { console.log(JSON.stringify(m)); w.terminate(); });`;
    const flags = ['--max-old-space-size=512', '--import', 'tsx'];
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      [...flags, '-e', script, JSON.stringify(workerExecArgv(flags) ?? null)],
      { cwd: fileURLToPath(new URL('.', import.meta.url)) },
    );
    // The worker started, and sees the flags it inherited.
    expect(JSON.parse(stdout)).toEqual(expect.arrayContaining(flags));
  });
});

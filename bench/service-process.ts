// What the benches that run servers as their own processes share: starting a pmx service (tsx, from
// the repository root) and waiting for a line of its output, forking a bench server that reports
// its port, and measuring a load with the server's CPU per request.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadOptions, type LoadResult } from './load.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const TICKS_PER_SECOND = 100;

/** user + system CPU time of a process, in ms (Linux /proc; 10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Starts `script` (a path from the repository root) with `env` over this process's environment, and
 * resolves once `ready` finds what it looks for in the standard output so far. BENCH_PROFILE_DIR=<dir>
 * writes a CPU profile of the service there when it stops.
 */
export function startService<T>(
  script: string,
  env: Record<string, string>,
  ready: (output: string) => T | undefined,
): Promise<{ child: ChildProcess; found: T }> {
  return new Promise((resolve, reject) => {
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let done = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = done ? undefined : ready(output);
      if (found === undefined) return;
      done = true;
      resolve({ child, found });
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited ${code} before it was ready: ${output.slice(-2000)}`)),
    );
  });
}

/** A bench server script (a file URL) forked with IPC; resolves once it sends `{ port }`. */
export function forkServer(script: URL): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited ${code}`)));
  });
}

export type MeasuredLoad = LoadResult & { cpuPerRequest: number };

/** A closed-loop load (runLoad) and the CPU the server process `pid` spent per request meanwhile (µs). */
export async function loadWithCpu(options: LoadOptions, pid: number): Promise<MeasuredLoad> {
  let cpuAtStart = 0;
  const result = await runLoad({ ...options, onMeasuring: () => (cpuAtStart = cpuMs(pid)) });
  return { ...result, cpuPerRequest: ((cpuMs(pid) - cpuAtStart) * 1000) / result.requests };
}

// pmx services as child processes, any of them, on this host or another (test/netns-hosts.ts): started from the repository with tsx,
// their output kept (for a failing test's message), stopped with SIGKILL as a crash would.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** How a process is started: here by default, or on another host (test/netns-hosts.ts). */
export type Spawner = (
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
) => ChildProcess;

const local: Spawner = (command, args, options) =>
  spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });

export class ChildProcesses<Name extends string> {
  readonly output: string[] = [];
  private readonly running = new Map<Name, ChildProcess>();

  /** Starts `script` (a path from the repository's root) as `name`. */
  start(name: Name, script: string, env: NodeJS.ProcessEnv, spawner: Spawner = local): void {
    const child = spawner(process.execPath, ['--import', 'tsx', script], { cwd: repo, env });
    const keep = (chunk: Buffer) => this.output.push(`[${name}] ${chunk.toString().trimEnd()}`);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.running.set(name, child);
  }

  /** SIGKILL, and resolves once it has exited. */
  async kill(name: Name): Promise<void> {
    const child = this.running.get(name);
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async killAll(): Promise<void> {
    for (const name of this.running.keys()) await this.kill(name);
  }

  /** The last lines the processes wrote. */
  tail(lines = 30): string {
    return this.output.slice(-lines).join('\n');
  }
}

// Runs HAProxy on a rendered config: checks it first (a bad setting is one line at start, not a
// process that dies later), then keeps it in the foreground (-db) so its parent stops it.
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';

/** `haproxy` on PATH, else Debian's /usr/sbin/haproxy (a user's PATH often lacks /usr/sbin). */
export function haproxyBinary(configured: string): string {
  if (configured !== 'haproxy') return configured;
  const onPath = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return onPath;
  return existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
}

/**
 * Refuses a config HAProxy would refuse, with HAProxy's own alert lines; `fds`: the open sockets
 * a config with `bind fd@N` names, passed as they will be to HAProxy itself.
 */
export function checkConfig(binary: string, configPath: string, fds: number[] = []): void {
  const check = spawnSync(binary, ['-c', '-q', '-f', configPath], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', ...fds],
  });
  if (check.error !== undefined)
    throw new Error(`edge: cannot run ${binary} (${check.error.message}); infra/setup.sh installs HAProxy`);
  if (check.status !== 0) {
    const alerts = `${check.stdout}${check.stderr}`.split('\n').filter((line) => /ALERT/.test(line));
    throw new Error(`edge: HAProxy refuses ${configPath}:\n${alerts.join('\n')}`);
  }
}

/** HAProxy in the foreground on `configPath`; `stdio` may pass listening sockets (bind fd@N). */
export function runHaproxy(binary: string, configPath: string, stdio: StdioOptions): ChildProcess {
  return spawn(binary, ['-db', '-f', configPath], { stdio });
}

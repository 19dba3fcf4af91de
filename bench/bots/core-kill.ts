// The core kill of a failover run (--kill-active-core-at): find the active core by its health
// port (GET /health answers 200 with "active": true only there), find the process listening on
// that port, and SIGKILL it. The process is found from /proc: the port's listening socket in
// /proc/net/tcp and tcp6 gives its inode, and the process holding an fd to "socket:[inode]" is
// the listener. That needs no tool (`ss -ltnp` may be missing, and parsing its output is
// brittle) and sees every process of the same user, which is what a local cluster is.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The first of `urls` whose GET /health says it is the active core. */
export async function activeCore(urls: readonly string[]): Promise<URL | undefined> {
  for (const url of urls) {
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      const body = (await response.json().catch(() => ({}))) as { active?: boolean };
      if (response.status === 200 && body.active === true) return new URL(url);
    } catch {
      // not answering: not the active core
    }
  }
  return undefined;
}

/** Inodes of the sockets listening on `port` (TCP, IPv4 and IPv6), from /proc/net. */
export function listeningInodes(port: number, tables = ['/proc/net/tcp', '/proc/net/tcp6']): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of tables) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (fields.length > 9 && fields[1]!.endsWith(`:${hexPort}`) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** The pid holding a socket of `inodes` among /proc's processes (those this user may read). */
export function pidOfSocket(inodes: ReadonlySet<string>): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) return Number(entry);
    }
  }
  return undefined;
}

export interface CoreKill {
  port: number;
  pid: number;
  /** When the signal was sent (ms since the epoch). */
  at: number;
}

/** SIGKILLs the active core among `urls`; throws when none is active or its process is not found. */
export async function killActiveCore(urls: readonly string[]): Promise<CoreKill> {
  const core = await activeCore(urls);
  if (core === undefined) throw new Error(`no active core among ${urls.join(', ')} (GET /health)`);
  const port = Number(core.port);
  const pid = pidOfSocket(listeningInodes(port));
  if (pid === undefined) throw new Error(`no process of this user listens on port ${port}`);
  process.kill(pid, 'SIGKILL');
  return { port, pid, at: Date.now() };
}

// CPU per process of the running exchange, from /proc: the services' node processes (named by the
// script they run: clob, ingest, catalog, data; in the cluster core and gateway), HAProxy, Redis, the
// Postgres backends serving the run's database, and the bots themselves. Each sample is the % of
// one core each group used since the last (200 % = both cores of this machine).

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { processCpuUs } from '../host-cpu.ts';

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The group a process counts in, or undefined for processes that are not the exchange's. */
export function groupOf(pid: number, database: string, self: number): string | undefined {
  if (pid === self) return 'bots';
  const comm = read(`/proc/${pid}/comm`)?.trim();
  if (comm === 'redis-server') return 'redis';
  if (comm === 'haproxy') return 'haproxy';
  const cmdline = read(`/proc/${pid}/cmdline`)?.replaceAll('\0', ' ').trim() ?? '';
  // A backend's title: "postgres: [cluster: ]user database host activity".
  if (comm === 'postgres')
    return /^postgres: (?:\S+: )?\S+ (\S+) /.exec(cmdline)?.[1] === database ? 'postgres' : undefined;
  if (comm !== 'node' && comm !== 'MainThread') return undefined;
  let cwd: string;
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
  return serviceOf(cmdline, cwd);
}

/**
 * A node process's service from the script it runs, relative to its working folder: `src/main.ts` in
 * `services/ingest` (the single-machine start) is `ingest`; `services/clob/src/core-main.ts` from the
 * repository (the cluster start) is the clob's role, `core` (or `gateway`).
 */
export function serviceOf(cmdline: string, cwd: string): string | undefined {
  for (const arg of cmdline.split(' ')) {
    const path = arg.startsWith('/') ? arg : `${cwd}/${arg}`;
    const match = /\/services\/([^/]+)\/src\/(?:([a-z]+)-)?main\.ts$/.exec(path);
    if (match) return match[2] ?? match[1];
  }
  return undefined;
}

function processIds(): number[] | undefined {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return undefined;
  }
}

export class ProcessCpu {
  private last = new Map<number, { group: string; us: number }>();
  private lastAt = performance.now();

  constructor(
    /** The run's Postgres database: only its backends count. */
    private readonly database: string,
  ) {
    this.sample();
  }

  /** % of one core per group since the previous call. */
  sample(): Record<string, number> {
    const now = performance.now();
    const seconds = (now - this.lastAt) / 1000;
    const next = new Map<number, { group: string; us: number }>();
    const usedUs = new Map<string, number>();
    const pids = processIds();
    if (pids === undefined) return {};
    for (const pid of pids) {
      const group = this.last.get(pid)?.group ?? groupOf(pid, this.database, process.pid);
      if (group === undefined) continue;
      const us = processCpuUs(pid);
      if (us === undefined) continue;
      next.set(pid, { group, us });
      const before = this.last.get(pid)?.us;
      usedUs.set(group, (usedUs.get(group) ?? 0) + (before === undefined ? 0 : us - before));
    }
    this.last = next;
    this.lastAt = now;
    const pct: Record<string, number> = {};
    for (const [group, us] of usedUs) pct[group] = seconds > 0 ? Number(((us / 1e6 / seconds) * 100).toFixed(1)) : 0;
    return pct;
  }
}

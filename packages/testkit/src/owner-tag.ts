// Every throwaway resource a test makes (database, Redis prefix, temp directory) carries the tag
// of the process that made it: a hash of the machine and its process-id namespace, and the pid.
// A run killed before its clean-up (SIGKILL, a crashed worker) leaves its resources behind; the
// next run's sweep (sweep-leftovers.ts) removes those whose process is gone, on this host only.
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** `o<host hash>p<pid>`, e.g. `o3fa9c01bp12345`. */
export type OwnerTag = string;

/**
 * Where a pid means one process: the machine (machine-id; host names are often shared, `vm`,
 * `localhost`) and the pid namespace (containers on one machine each have their own pids).
 */
function hostIdentity(): string {
  const read = (read: () => string) => {
    try {
      return read();
    } catch {
      return '';
    }
  };
  return [
    hostname(),
    read(() => readFileSync('/etc/machine-id', 'utf8').trim()),
    read(() => readlinkSync('/proc/self/ns/pid')),
  ].join('\u0000');
}

const HOST = createHash('sha256').update(hostIdentity()).digest('hex').slice(0, 8);

/** A tag found in a resource's name: `o<8 hex>p<digits>`. */
export const OWNER_TAG_PATTERN = 'o([0-9a-f]{8})p([0-9]{1,10})';

export function ownerTag(pid = process.pid): OwnerTag {
  return `o${HOST}p${pid}`;
}

/**
 * True when the tag names a process of this host that no longer runs. Tags of other hosts (a
 * Postgres or Redis shared between machines) and live or unknown processes are never "dead".
 */
export function isDeadOwner(host: string, pid: number): boolean {
  if (host !== HOST || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

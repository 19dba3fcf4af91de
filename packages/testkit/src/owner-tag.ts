// Every throwaway resource a test makes (database, Redis prefix, temp directory) carries the tag
// of the process that made it: a short hash of the host's name and the process id. A run killed
// before its clean-up (SIGKILL, a crashed worker) leaves its resources behind; the next run's
// sweep (sweep-leftovers.ts) removes those whose process is gone, on this host only.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

/** `o<host hash>p<pid>`, e.g. `o3fa9p12345`. */
export type OwnerTag = string;

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 4);

/** A tag found in a resource's name: `o<4 hex>p<digits>`. */
export const OWNER_TAG_PATTERN = 'o([0-9a-f]{4})p([0-9]{1,10})';

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

// What the machine did with its CPU during a phase. Steal: the share of CPU time the hypervisor
// gave to others while our vCPUs wanted to run (/proc/stat); on the 2-core bench machine it has run
// from 0 to over 20 % within minutes, which moves rates and tails, so each phase reports it beside
// its figures. Also a process's CPU time (/proc/<pid>/stat) and how idle vCPUs wait for work
// (cpuidle). Each is undefined where Linux's files are missing.
import { readFileSync } from 'node:fs';

interface CpuTicks {
  steal: number;
  total: number;
}

function ticks(): CpuTicks | undefined {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is in user)
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { steal: fields[7]!, total: fields.reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

/** Runs a phase and returns its result with the host's steal over it, in % of all CPU time. */
export async function withSteal<T>(phase: () => Promise<T>): Promise<T & { stealPct: number | undefined }> {
  const before = ticks();
  const result = await phase();
  const after = ticks();
  const stealPct =
    before && after && after.total > before.total
      ? (100 * (after.steal - before.steal)) / (after.total - before.total)
      : undefined;
  return { ...result, stealPct };
}

/** A steal figure for a table cell. */
export function stealCell(stealPct: number | undefined): string {
  return stealPct === undefined ? 'n/a' : stealPct.toFixed(0);
}

/** A steal figure for the JSON results: % to one decimal, or 'n/a'. */
export function stealFigure(stealPct: number | undefined): number | string {
  return stealPct === undefined ? 'n/a' : Number(stealPct.toFixed(1));
}

/**
 * How this machine's idle vCPUs wait for work: the cpuidle driver and, for haltpoll (KVM guests),
 * how long an idle vCPU polls before it halts. The bench machine boots with 0: every wake-up of a
 * sleeping thread then resumes a halted vCPU, which makes a lone thread round trip ≈ 5× slower
 * than with the kernel's default of 200 µs (bench/README.md). Undefined where sysfs
 * does not say.
 */
export function idlePolling(): { driver: string; guestHaltPollNs: number | undefined } | undefined {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  const driver = read('/sys/devices/system/cpu/cpuidle/current_driver');
  if (driver === undefined) return undefined;
  const pollNs = read('/sys/module/haltpoll/parameters/guest_halt_poll_ns');
  return { driver, guestHaltPollNs: pollNs === undefined ? undefined : Number(pollNs) };
}

/** Linux's USER_HZ, the ticks /proc counts CPU time in: 100 per second on x86 and Arm. */
const CLOCK_TICKS = 100;

/** A process's CPU time so far (user + system, all threads) in µs, from /proc; undefined elsewhere. */
export function processCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name: state is the line's 3rd field, utime and stime its 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

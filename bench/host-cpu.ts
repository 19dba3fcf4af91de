// What the host did to this VM during a phase: the share of CPU time the hypervisor gave to
// others while our vCPUs wanted to run ("steal", from /proc/stat). On the 2-core bench machine it
// has run from 0 to over 20 % of all CPU time within minutes, which moves rates and tails, so each
// phase reports it beside its figures. Undefined where /proc/stat is missing (not Linux).
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
  const stealPct = before && after && after.total > before.total ? (100 * (after.steal - before.steal)) / (after.total - before.total) : undefined;
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

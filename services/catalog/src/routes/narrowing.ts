// Picking the smallest id set several filters allow, so a list query walks only its candidates.

/** Candidate sets this small are always filtered and sorted directly. */
const ALWAYS_SORT = 64;
/** A comparison (sort keys read through closures) costs about this many walk steps. */
const SORT_STEP_COST = 4;

/**
 * The smallest of the given id sets when filtering and sorting it (k log k) is cheaper than
 * walking a presorted view of all `total` records until `wanted` (offset + limit) of them match
 * (about wanted × total / k steps); undefined otherwise. The caller's filter still checks every set.
 */
export function candidateIds(
  total: number,
  wanted: number,
  ...sets: (ReadonlySet<number> | readonly number[] | undefined)[]
): Iterable<number> | undefined {
  let best: ReadonlySet<number> | readonly number[] | undefined;
  let bestSize = Infinity;
  for (const set of sets) {
    if (set === undefined) continue;
    const size = 'size' in set ? set.size : set.length;
    if (size < bestSize) {
      best = set;
      bestSize = size;
    }
  }
  if (best === undefined) return undefined;
  const sortCost = bestSize * Math.log2(bestSize + 2) * SORT_STEP_COST;
  const walkCost = (wanted * total) / Math.max(1, bestSize);
  return bestSize <= ALWAYS_SORT || sortCost < walkCost ? best : undefined;
}

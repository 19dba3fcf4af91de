// Which request paths the front may carry over its shared lanes: those uWS routes to an immediate
// GET route. A path matches a uWS pattern segment by segment: a static segment exactly, a
// `:name` segment any one segment. uWS prefers static segments to parameters, so a path that an
// immediate pattern matches may still belong to another GET route (`/markets/:id` and a
// `/markets/stats` that reads a database): a path any other GET pattern could take is not
// shared. Erring that way only costs speed, never an answer.

function segments(path: string): string[] {
  return path.split('/');
}

function matches(pattern: readonly string[], path: readonly string[], strict: boolean): boolean {
  if (pattern.length !== path.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    if (want.startsWith(':')) {
      // An immediate pattern takes only a non-empty segment; any other one is assumed to take all.
      if (strict && path[i] === '') return false;
    } else if (want !== path[i]) {
      return false;
    }
  }
  return true;
}

/**
 * @param immediate patterns of the immediate GET routes (HttpServer.immediateGets)
 * @param others patterns of every other GET route (HttpServer.otherGets)
 */
export function sharedPathTest(immediate: readonly string[], others: readonly string[]): (path: string) => boolean {
  const exact = new Set(immediate.filter((p) => !p.includes(':') && !p.includes('*')));
  const patterns = immediate.filter((p) => p.includes(':') && !p.includes('*')).map(segments);
  const excluded = others.map(segments);
  // Another GET route with a wildcard could take any path: then no parameter path is shared.
  const otherWildcard = excluded.some((pattern) => pattern.some((s) => s.endsWith('*')));
  // A static path of an immediate route wins over any pattern in uWS, so the set alone decides it.
  return (path) => {
    if (exact.has(path)) return true;
    if (patterns.length === 0 || otherWildcard) return false;
    const parts = segments(path);
    if (!patterns.some((pattern) => matches(pattern, parts, true))) return false;
    return !excluded.some((pattern) => matches(pattern, parts, false));
  };
}

// A log for errors that come in storms (a server away, retried every few ms): at most one line
// per period, the next saying how many it left out.

/** `log`, at most once per `periodMs`; a line after a quiet spell names the lines left out. */
export function throttledLog(
  log: (line: string) => void,
  periodMs = 10_000,
  now: () => number = () => performance.now(),
): (line: string) => void {
  let loggedAt = -Infinity;
  let left = 0;
  return (line) => {
    if (now() - loggedAt < periodMs) {
      left++;
      return;
    }
    loggedAt = now();
    log(left > 0 ? `${line} (and ${left} like it left out)` : line);
    left = 0;
  };
}

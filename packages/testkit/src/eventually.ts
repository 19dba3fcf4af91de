// Waits for a condition that becomes true on its own (a projection catching up, a batch applied).

/**
 * Calls `check` until it returns something other than `false` without throwing, and resolves
 * with that value. Past `timeoutMs` it rejects with the check's last error, or with
 * "timed out waiting for <what>" when the check kept answering `false`. It checks every `everyMs`.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
  everyMs = 10,
): Promise<Exclude<T, false>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      failure = new Error(`timed out waiting for ${what}`);
    } catch (error) {
      failure = error;
    }
    if (performance.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

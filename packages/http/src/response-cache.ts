// Whole response bodies by request (path + query string), valid while what they were built from
// is unchanged (the stamp the caller gives has not moved): a read served from a projection that
// everyone asks for (open markets by volume, a wallet's positions a UI polls) is then one Map read.
// Least recently used out.

export class ResponseCache {
  private readonly entries = new Map<string, { epoch: number | string; body: string }>();

  constructor(private readonly maxEntries: number) {}

  /** The cached body, or build()'s, kept under the stamp `epoch()` gives now. */
  through(key: string, epoch: () => number | string, build: () => string): string {
    if (this.maxEntries <= 0) return build();
    const hit = this.entries.get(key);
    const now = epoch();
    if (hit !== undefined) {
      this.entries.delete(key);
      if (hit.epoch === now) {
        this.entries.set(key, hit);
        return hit.body;
      }
    }
    const body = build();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { epoch: now, body });
    return body;
  }
}

// Whole list and search responses by request (path + query string), valid until anything in the
// catalog changes (the state's epoch moves) — the pages everyone asks for (open markets by
// volume, a popular event's comments) are then one Map read. Least recently used out.

export class ResponseCache {
  private readonly entries = new Map<string, { epoch: number; body: string }>();

  constructor(private readonly maxEntries: number) {}

  /** The cached body, or build()'s (cached when the epoch has not moved meanwhile). */
  through(key: string, epoch: () => number, build: () => string): string {
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

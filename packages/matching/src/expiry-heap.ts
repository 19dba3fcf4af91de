// Min-heap of (expiresAt, orderId) for GTD orders; ties break on order id so expiry order is
// deterministic. Entries of orders already gone are skipped lazily by the engine.

export class ExpiryHeap {
  private times: number[] = [];
  private ids: number[] = [];

  get size(): number {
    return this.times.length;
  }

  peekTime(): number {
    return this.times.length === 0 ? Infinity : this.times[0];
  }

  peekId(): number {
    return this.ids[0];
  }

  push(time: number, id: number): void {
    const times = this.times;
    const ids = this.ids;
    let i = times.length;
    times.push(time);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(time, id, times[parent], ids[parent])) break;
      times[i] = times[parent];
      ids[i] = ids[parent];
      i = parent;
    }
    times[i] = time;
    ids[i] = id;
  }

  pop(): void {
    const times = this.times;
    const ids = this.ids;
    const lastTime = times.pop()!;
    const lastId = ids.pop()!;
    const n = times.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.less(times[child + 1], ids[child + 1], times[child], ids[child])) child++;
      if (!this.less(times[child], ids[child], lastTime, lastId)) break;
      times[i] = times[child];
      ids[i] = ids[child];
      i = child;
    }
    times[i] = lastTime;
    ids[i] = lastId;
  }

  /** Keeps only the entries whose id passes `keep`, still a heap (a sorted array is one). */
  retain(keep: (id: number) => boolean): void {
    const kept: [number, number][] = [];
    for (let i = 0; i < this.ids.length; i++) if (keep(this.ids[i]!)) kept.push([this.times[i]!, this.ids[i]!]);
    kept.sort((a, b) => (this.less(a[0], a[1], b[0], b[1]) ? -1 : 1));
    this.times = kept.map((entry) => entry[0]);
    this.ids = kept.map((entry) => entry[1]);
  }

  clear(): void {
    this.times = [];
    this.ids = [];
  }

  private less(t1: number, id1: number, t2: number, id2: number): boolean {
    return t1 < t2 || (t1 === t2 && id1 < id2);
  }
}

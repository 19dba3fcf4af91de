// A binary min-heap of (deadline, id): what to forget next, whatever order the deadlines come in.

export class DeadlineHeap {
  private deadlines = new Float64Array(1024);
  private ids: string[] = [];

  get size(): number {
    return this.ids.length;
  }

  push(deadline: number, id: string): void {
    let i = this.ids.length;
    if (i === this.deadlines.length) {
      const grown = new Float64Array(i * 2);
      grown.set(this.deadlines);
      this.deadlines = grown;
    }
    this.ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.deadlines[parent]! <= deadline) break;
      this.deadlines[i] = this.deadlines[parent]!;
      this.ids[i] = this.ids[parent]!;
      i = parent;
    }
    this.deadlines[i] = deadline;
    this.ids[i] = id;
  }

  /** The earliest deadline, or undefined when empty. */
  peek(): number | undefined {
    return this.ids.length === 0 ? undefined : this.deadlines[0];
  }

  /** Removes and returns the id with the earliest deadline if that deadline is before `now`. */
  popBefore(now: number): string | undefined {
    const n = this.ids.length;
    if (n === 0 || this.deadlines[0]! >= now) return undefined;
    const top = this.ids[0]!;
    const lastDeadline = this.deadlines[n - 1]!;
    const lastId = this.ids.pop()!;
    const size = n - 1;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && this.deadlines[right]! < this.deadlines[left]! ? right : left;
        if (this.deadlines[child]! >= lastDeadline) break;
        this.deadlines[i] = this.deadlines[child]!;
        this.ids[i] = this.ids[child]!;
        i = child;
      }
      this.deadlines[i] = lastDeadline;
      this.ids[i] = lastId;
    }
    return top;
  }
}

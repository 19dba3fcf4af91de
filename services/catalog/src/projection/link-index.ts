// A many-to-many link table held both ways (event ↔ market, event ↔ tag, …), so either side's
// partners are a Map read.

const NONE: ReadonlySet<number> = new Set();

export class LinkIndex {
  private readonly forward = new Map<number, Set<number>>();
  private readonly backward = new Map<number, Set<number>>();

  add(a: number, b: number): void {
    let right = this.forward.get(a);
    if (right === undefined) this.forward.set(a, (right = new Set()));
    right.add(b);
    let left = this.backward.get(b);
    if (left === undefined) this.backward.set(b, (left = new Set()));
    left.add(a);
  }

  remove(a: number, b: number): void {
    const right = this.forward.get(a);
    if (right !== undefined && right.delete(b) && right.size === 0) this.forward.delete(a);
    const left = this.backward.get(b);
    if (left !== undefined && left.delete(a) && left.size === 0) this.backward.delete(b);
  }

  /** Partners of a left-hand id (e.g. the markets of an event). */
  of(a: number): ReadonlySet<number> {
    return this.forward.get(a) ?? NONE;
  }

  /** Partners of a right-hand id (e.g. the events of a market). */
  to(b: number): ReadonlySet<number> {
    return this.backward.get(b) ?? NONE;
  }
}

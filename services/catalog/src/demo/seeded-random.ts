// A small seeded PRNG (mulberry32) with the draws the demo generator needs, so the same seed
// gives the same catalog on every machine and run.

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** k distinct items (or all of them when k ≥ length), in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }

  /** Lowercase hex of `bytes` random bytes. */
  hex(bytes: number): string {
    let out = '';
    while (out.length < bytes * 2)
      out += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, bytes * 2);
  }

  /** A heavy-tailed positive amount: exp(normal(mu, sigma)). */
  logNormal(mu: number, sigma: number): number {
    const u = 1 - this.next();
    const v = this.next();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.exp(mu + sigma * normal);
  }
}

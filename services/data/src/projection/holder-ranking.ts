// The holders of one outcome token, largest first (equal amounts by address), kept sorted as
// positions change, so GET /holders reads a prefix: no sort per request.

export interface Holder {
  address: string;
  /** Token base units held (> 0). */
  amount: number;
}

/** Whether a ranks before b: more tokens first, then the lower address. */
function before(a: Holder, b: Holder): boolean {
  return a.amount > b.amount || (a.amount === b.amount && a.address < b.address);
}

export class HolderRanking {
  private readonly ranked: Holder[] = [];
  private readonly amounts = new Map<string, number>();

  get size(): number {
    return this.ranked.length;
  }

  /** Sets an address's holding; 0 or less removes it. */
  set(address: string, amount: number): void {
    const previous = this.amounts.get(address);
    if (previous === amount) return;
    if (previous !== undefined) {
      this.ranked.splice(this.indexOf({ address, amount: previous }), 1);
      this.amounts.delete(address);
    }
    if (amount <= 0) return;
    const holder = { address, amount };
    this.ranked.splice(this.indexOf(holder), 0, holder);
    this.amounts.set(address, amount);
  }

  /** The first `limit` holders with at least `minAmount` base units. */
  top(limit: number, minAmount: number): Holder[] {
    const out: Holder[] = [];
    for (const holder of this.ranked) {
      if (out.length >= limit || holder.amount < minAmount) break;
      out.push(holder);
    }
    return out;
  }

  /** Where `holder` is, or would go: the first place whose holder does not rank before it. */
  private indexOf(holder: Holder): number {
    let lo = 0;
    let hi = this.ranked.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.ranked[mid]!, holder)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// How far trades can take any balance, from what operators supplied, kept up to date as supplies
// change so that a deposit's check costs the same with 8,000 markets as with one.
//
// Supplies are net (deposits − withdrawals) and a token's can go negative (minted tokens
// withdrawn). With L_m the collateral locked in market m (mints − merges), holdings are
// collateral sC − Σ L_m and, of a token t of m, s_t + L_m, all ≥ 0, so L_m ≥ −min_m where min_m
// is the smaller of m's token supplies. Hence:
//   collateral held ≤ sC + Σ_m min_m                         (the ceiling)
//   L_m             ≤ sC + Σ_{k≠m} min_k = ceiling − min_m
//   a token t of m  ≤ s_t + L_m ≤ ceiling + (s_t − min_m)
// so everything m holds stays below ceiling + (max(larger supply, 0) − min_m), m's reach (the
// locked figure when both supplies are negative: minted tokens withdrawn on both sides). Every
// figure stays below 2^53 while the ceiling plus the widest reach (a token without a market: its
// own supply) does, and each supply does; all of these can be reached, so the bound is exact.
// Figures are bigints: the sums can pass 2^53 on the way (negative terms), and must stay exact.

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

interface Term {
  /** The smaller token supply of a market (0 for a token without one). */
  min: bigint;
  /** A market's reach: max(its larger supply, 0) − its smaller (a token without a market: its supply, at least 0). */
  gap: bigint;
}

const NO_TERM: Term = { min: 0n, gap: 0n };

export class SupplyBound {
  private readonly marketOf = new Map<string, readonly [string, string]>();
  private readonly terms = new Map<string, Term>();
  /** Σ of the terms' `min`. */
  private sumOfMins = 0n;
  private widestGap = 0n;
  private widestKey: string | undefined;

  constructor(
    /** A token's (or collateral's) net supply now. */
    private readonly supplyOf: (asset: string) => number,
    private readonly collateral: string,
  ) {}

  addMarket(tokens: readonly [string, string]): void {
    for (const token of tokens) {
      this.marketOf.set(token, tokens);
      this.replace(`t:${token}`, NO_TERM);
    }
    this.supplyChanged(tokens[0]);
  }

  /** After an asset's supply changed (a deposit, a withdrawal). */
  supplyChanged(asset: string): void {
    if (asset === this.collateral) return;
    const key = this.keyOf(asset);
    this.replace(
      key,
      this.termOf(asset, (token) => BigInt(this.supplyOf(token))),
    );
  }

  /** After every supply was replaced (a restore from the ledger). */
  recompute(assets: Iterable<string>): void {
    this.terms.clear();
    this.sumOfMins = 0n;
    this.widestGap = 0n;
    this.widestKey = undefined;
    for (const asset of assets) this.supplyChanged(asset);
  }

  /** Whether supplies grown by `delta` (per asset, ≥ 0) keep every balance below 2^53. */
  allows(delta: ReadonlyMap<string, number>): boolean {
    const supply = (asset: string) => BigInt(this.supplyOf(asset)) + BigInt(delta.get(asset) ?? 0);
    const collateral = supply(this.collateral);
    if (collateral > MAX) return false;
    let sumOfMins = this.sumOfMins;
    const changed = new Map<string, Term>();
    for (const asset of delta.keys()) {
      if (asset === this.collateral) continue;
      if (supply(asset) > MAX) return false;
      const key = this.keyOf(asset);
      if (changed.has(key)) continue;
      const term = this.termOf(asset, supply);
      changed.set(key, term);
      sumOfMins += term.min - (this.terms.get(key) ?? NO_TERM).min;
    }
    // The widest gap after the change: the running one, unless the change touches its market
    // (then one pass over the others: rare, a deposit to the market with the widest gap).
    let widest =
      this.widestKey !== undefined && changed.has(this.widestKey) ? this.widestExcept(changed) : this.widestGap;
    for (const { gap } of changed.values()) if (gap > widest) widest = gap;
    return collateral + sumOfMins + widest <= MAX;
  }

  private widestExcept(keys: ReadonlyMap<string, Term>): bigint {
    let widest = 0n;
    for (const [key, { gap }] of this.terms) if (!keys.has(key) && gap > widest) widest = gap;
    return widest;
  }

  private keyOf(token: string): string {
    const market = this.marketOf.get(token);
    return market === undefined ? `t:${token}` : `m:${market[0]}`;
  }

  private termOf(token: string, supply: (token: string) => bigint): Term {
    const market = this.marketOf.get(token);
    if (market === undefined) {
      const own = supply(token);
      return { min: 0n, gap: own > 0n ? own : 0n };
    }
    const [a, b] = [supply(market[0]), supply(market[1])];
    const [low, high] = a < b ? [a, b] : [b, a];
    return { min: low, gap: (high > 0n ? high : 0n) - low };
  }

  private replace(key: string, term: Term): void {
    this.sumOfMins += term.min - (this.terms.get(key) ?? NO_TERM).min;
    if (term === NO_TERM) this.terms.delete(key);
    else this.terms.set(key, term);
    if (term.gap >= this.widestGap) {
      this.widestGap = term.gap;
      this.widestKey = key;
    } else if (key === this.widestKey) {
      // The widest narrowed: find the new one (rare: deposits widen, and it is one pass).
      this.widestGap = 0n;
      this.widestKey = undefined;
      for (const [other, { gap }] of this.terms) {
        if (gap >= this.widestGap) {
          this.widestGap = gap;
          this.widestKey = other;
        }
      }
    }
  }
}

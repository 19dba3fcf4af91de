// Collateral held by each market for the pairs of its tokens still out: locked by mints and
// splits, released by merges, paid out by redemptions at the market's payouts (which burn its
// tokens). Part of the risk book (risk-book.ts); its check is the market side of the
// conservation invariant (docs/design/money.md).

import type { RiskMarket } from './risk-book.ts';

/** What the ledger has of a market's collateral: locked, and what redemptions paid and burnt. */
export interface MarketFunds {
  market: string;
  amount: number;
  paidOut?: number;
  burnt?: [number, number];
}

export class MarketCollateral {
  /** Per market, locked now (minted − merged − paid out). */
  private readonly locked = new Map<string, number>();
  /** Per market, what its redemptions paid; per token, what they burnt. */
  private readonly paidOut = new Map<string, number>();
  private readonly burnt = new Map<string, number>();
  /** Payouts of resolved markets. */
  private readonly payouts = new Map<string, readonly [number, number]>();

  constructor(private readonly market: (key: string) => RiskMarket | undefined) {}

  add(key: string): void {
    if (!this.locked.has(key)) this.locked.set(key, 0);
  }

  of(key: string): number {
    return this.locked.get(key) ?? 0;
  }

  /** Minting or splitting `pairs` locks that much; merging them (negative) releases it. */
  change(key: string, pairs: number): void {
    this.set(key, (this.locked.get(key) ?? 0) + pairs);
  }

  resolve(key: string, payouts: readonly [number, number]): void {
    this.payouts.set(key, payouts);
  }

  /** A redemption burnt `tokens` of the market's two tokens and paid `collateral` out of it. */
  redeemed(key: string, tokens: readonly [number, number], collateral: number): void {
    const market = this.market(key);
    if (market === undefined) throw new Error(`redemption in unknown market ${key}`);
    market.tokens.forEach((token, i) => this.burnt.set(token, (this.burnt.get(token) ?? 0) + tokens[i]!));
    this.paidOut.set(key, (this.paidOut.get(key) ?? 0) + collateral);
    this.set(key, (this.locked.get(key) ?? 0) - collateral);
  }

  /** Replaces every figure with the ledger's (payouts come through `resolve`). */
  restore(funds: readonly MarketFunds[]): void {
    this.paidOut.clear();
    this.burnt.clear();
    this.payouts.clear();
    for (const { market, amount, paidOut, burnt } of funds) {
      this.locked.set(market, amount);
      if (paidOut !== undefined && paidOut !== 0) this.paidOut.set(market, paidOut);
      const tokens = this.market(market)?.tokens;
      if (burnt !== undefined && tokens !== undefined)
        tokens.forEach((t, i) => burnt[i] !== 0 && this.burnt.set(t, burnt[i]!));
    }
  }

  /**
   * Each market's figures against the token supplies: locked never below what tokens from outside
   * back, and each token's supply its pairs still out less what redemptions burnt plus what was
   * supplied of it. Returns the violations and the collateral locked in all markets.
   */
  check(held: ReadonlyMap<string, number>, supplied: (asset: string) => number): { problems: string[]; total: number } {
    const problems: string[] = [];
    let total = 0;
    for (const [key, amount] of this.locked) {
      total += amount;
      if (amount < -this.backedOutside(key, supplied)) problems.push(`market ${key} has ${amount} collateral locked`);
      // Pairs still out: minted less merged, the locked collateral plus what redemptions paid from it.
      const pairs = amount + (this.paidOut.get(key) ?? 0);
      for (const token of this.market(key)?.tokens ?? []) {
        const supply = held.get(token) ?? 0;
        const expected = supplied(token) + pairs - (this.burnt.get(token) ?? 0);
        if (supply !== expected) problems.push(`token ${token} supply ${supply}, expected ${expected}`);
      }
    }
    return { problems, total };
  }

  /**
   * Tokens the operator credited are backed outside (on chain): only merging them (or, once the
   * market resolved, redeeming them at its payouts) may release more collateral than this
   * market's own mints locked.
   */
  private backedOutside(key: string, supplied: (asset: string) => number): number {
    const market = this.market(key);
    if (market === undefined) return 0;
    const supplies = market.tokens.map(supplied);
    const pairs = Math.min(...supplies);
    const payouts = this.payouts.get(key);
    if (payouts === undefined) return pairs;
    const value = supplies.reduce((sum, s, i) => sum + BigInt(Math.max(s, 0)) * BigInt(payouts[i]!), 0n) / 1_000_000n;
    return Math.max(pairs, Number(value));
  }

  /** canCredit keeps supplies where this cannot happen; should it, fail (and halt) rather than round. */
  private set(key: string, amount: number): void {
    if (!Number.isSafeInteger(amount)) throw new Error(`market ${key} would lock collateral past 2^53 - 1 base units`);
    this.locked.set(key, amount);
  }
}

// Operator deposits and withdrawals: written to Postgres (operator_transfers, which a trigger
// turns into ledger entries and balances) and applied to the risk book. After a restart the risk
// book is rebuilt from the ledger's balances (recovery/), not from here.

import type { Sql } from '@pmx/db';
import type { RiskBook } from '@pmx/risk';

export class Funding {
  /**
   * Headroom below 2^53 held per asset by transfers on their way to Postgres: deposits written but
   * not yet credited, and withdrawals debited that a failed write would credit back.
   */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    private readonly risk: RiskBook,
  ) {}

  /** False, and nothing written, when the deposit would take a total past exact integers. */
  async deposit(address: string, asset: string, amount: number): Promise<boolean> {
    const who = address.toLowerCase();
    // Transfers still on their way count (to any address, and of other assets, since supplies
    // bound each other: RiskBook.canCredit): two deposits that each fit but not together must not
    // both be written, or the second could not be credited after its commit.
    if (!this.risk.canCredit(who, asset, amount, this.pending)) return false;
    await this.holding(asset, amount, () => this.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${who}, ${asset}, ${amount})`);
    this.risk.credit(who, asset, amount);
    return true;
  }

  /** Only what is not reserved by open orders can be withdrawn. */
  async withdraw(address: string, asset: string, amount: number): Promise<boolean> {
    const who = address.toLowerCase();
    if (!this.risk.debit(who, asset, amount)) return false;
    try {
      await this.holding(asset, amount, () => this.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${who}, ${asset}, ${-amount})`);
    } catch (error) {
      this.risk.credit(who, asset, amount); // fits: deposits meanwhile left this amount free
      throw error;
    }
    return true;
  }

  private async holding(asset: string, amount: number, write: () => Promise<unknown>): Promise<void> {
    this.pending.set(asset, (this.pending.get(asset) ?? 0) + amount);
    try {
      await write();
    } finally {
      const left = this.pending.get(asset)! - amount;
      if (left === 0) this.pending.delete(asset);
      else this.pending.set(asset, left);
    }
  }
}

// Operator deposits and withdrawals: written to Postgres (operator_transfers, which a trigger
// turns into ledger entries and balances) and applied to the risk book. After a restart the risk
// book is rebuilt from the ledger's balances (recovery/), not from here.

import type { Sql } from '@pmx/db';
import type { RiskBook } from '@pmx/risk';

export class Funding {
  /** Deposits written to Postgres but not yet credited, by address and asset. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    private readonly risk: RiskBook,
  ) {}

  /** False, and nothing written, when the deposit would take a total past exact integers. */
  async deposit(address: string, asset: string, amount: number): Promise<boolean> {
    const who = address.toLowerCase();
    const key = `${who}\u0000${asset}`;
    // Deposits still on their way to Postgres count: two that each fit but not together must not
    // both be written, or the second could not be credited after its commit.
    const inFlight = this.pending.get(key) ?? 0;
    if (!Number.isSafeInteger(inFlight + amount) || !this.risk.canCredit(who, asset, inFlight + amount)) return false;
    this.pending.set(key, inFlight + amount);
    try {
      await this.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${who}, ${asset}, ${amount})`;
    } finally {
      const left = this.pending.get(key)! - amount;
      if (left === 0) this.pending.delete(key);
      else this.pending.set(key, left);
    }
    this.risk.credit(who, asset, amount);
    return true;
  }

  /** Only what is not reserved by open orders can be withdrawn. */
  async withdraw(address: string, asset: string, amount: number): Promise<boolean> {
    const who = address.toLowerCase();
    if (!this.risk.debit(who, asset, amount)) return false;
    try {
      await this.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${who}, ${asset}, ${-amount})`;
    } catch (error) {
      this.risk.credit(who, asset, amount);
      throw error;
    }
    return true;
  }
}

// Operator deposits and withdrawals: written to Postgres (operator_transfers) and applied to the
// risk book; at start the book is credited with each address's net transfers.

import type { Sql } from '@pmx/db';
import type { RiskBook } from '@pmx/risk';

export class Funding {
  constructor(
    private readonly sql: Sql,
    private readonly risk: RiskBook,
  ) {}

  async load(): Promise<void> {
    const rows = await this.sql<{ address: string; asset: string; amount: string }[]>`
      SELECT address, asset, sum(amount)::text AS amount FROM operator_transfers GROUP BY address, asset`;
    for (const row of rows) {
      const amount = Number(row.amount);
      if (amount > 0) this.risk.credit(row.address, row.asset, amount);
    }
  }

  async deposit(address: string, asset: string, amount: number): Promise<void> {
    const who = address.toLowerCase();
    await this.sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${who}, ${asset}, ${amount})`;
    this.risk.credit(who, asset, amount);
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

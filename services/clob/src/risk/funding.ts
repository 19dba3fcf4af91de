// Operator deposits and withdrawals: written to Postgres (operator_transfers, which a trigger
// turns into ledger entries and balances) and applied to the risk book. After a restart the risk
// book is rebuilt from the ledger's balances (recovery/), not from here.
//
// A transfer may carry the caller's idempotency key (`idempotency_key`): a retry of one already
// written is answered `replayed` and changes nothing (requests with one key run in turn, and the
// unique column decides between processes); the same key for another transfer is a
// IdempotencyKeyConflict.

import type { Sql } from '@pmx/db';
import type { RiskBook } from '@pmx/risk';
import { KeyedTurns } from '../keyed-turns.ts';

export type TransferOutcome = 'applied' | 'replayed' | 'refused';

export class IdempotencyKeyConflict extends Error {
  constructor(idempotencyKey: string) {
    super(`idempotency_key ${idempotencyKey} was already used for another transfer`);
  }
}

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

  /**
   * Requests with the same idempotency key, one at a time: a retry that arrived while the first was
   * still being written found no row, and was refused by the balance the first had already taken.
   */
  private readonly turns = new KeyedTurns();

  /** `refused`, and nothing written, when the deposit would take a total past exact integers. */
  deposit(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    return this.oneAtATime(idempotencyKey, () => this.depositNow(address, asset, amount, idempotencyKey));
  }

  /** Only what is not reserved by open orders can be withdrawn. */
  withdraw(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    return this.oneAtATime(idempotencyKey, () => this.withdrawNow(address, asset, amount, idempotencyKey));
  }

  private oneAtATime(idempotencyKey: string | undefined, run: () => Promise<TransferOutcome>): Promise<TransferOutcome> {
    return idempotencyKey === undefined ? run() : this.turns.run(idempotencyKey, run);
  }

  private async depositNow(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    const who = address.toLowerCase();
    if (idempotencyKey !== undefined && (await this.written(idempotencyKey, who, asset, amount))) return 'replayed';
    // Transfers still on their way count (to any address, and of other assets, since supplies
    // bound each other: RiskBook.canCredit): two deposits that each fit but not together must not
    // both be written, or the second could not be credited after its commit.
    if (!this.risk.canCredit(who, asset, amount, this.pending)) return 'refused';
    const inserted = await this.holding(asset, amount, () => this.insert(who, asset, amount, idempotencyKey));
    if (!inserted) return this.replayOf(idempotencyKey!, who, asset, amount);
    this.risk.credit(who, asset, amount);
    return 'applied';
  }

  private async withdrawNow(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    const who = address.toLowerCase();
    if (idempotencyKey !== undefined && (await this.written(idempotencyKey, who, asset, -amount))) return 'replayed';
    if (!this.risk.debit(who, asset, amount)) return 'refused';
    let inserted: boolean;
    try {
      inserted = await this.holding(asset, amount, () => this.insert(who, asset, -amount, idempotencyKey));
    } catch (error) {
      this.risk.credit(who, asset, amount); // fits: deposits meanwhile left this amount free
      throw error;
    }
    if (inserted) return 'applied';
    this.risk.credit(who, asset, amount); // another request with this id was written first
    return this.replayOf(idempotencyKey!, who, asset, -amount);
  }

  /** Whether a transfer with this id is written; throws if it is another transfer. */
  private async written(idempotencyKey: string, address: string, asset: string, signed: number): Promise<boolean> {
    const [row] = await this.sql<{ address: string; asset: string; amount: string }[]>`
      SELECT address, asset, amount::text FROM operator_transfers WHERE idempotency_key = ${idempotencyKey}`;
    if (row === undefined) return false;
    if (row.address !== address || row.asset !== asset || row.amount !== String(signed)) throw new IdempotencyKeyConflict(idempotencyKey);
    return true;
  }

  private async replayOf(idempotencyKey: string, address: string, asset: string, signed: number): Promise<TransferOutcome> {
    if (!(await this.written(idempotencyKey, address, asset, signed))) throw new Error(`transfer ${idempotencyKey}: neither written nor found`);
    return 'replayed';
  }

  /** False when a transfer with this id is already written (nothing is inserted then). */
  private async insert(address: string, asset: string, signed: number, idempotencyKey: string | undefined): Promise<boolean> {
    const rows = await this.sql`
      INSERT INTO operator_transfers (address, asset, amount, idempotency_key) VALUES (${address}, ${asset}, ${signed}, ${idempotencyKey ?? null})
      ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`;
    return rows.length === 1;
  }

  private async holding<T>(asset: string, amount: number, write: () => Promise<T>): Promise<T> {
    this.pending.set(asset, (this.pending.get(asset) ?? 0) + amount);
    try {
      return await write();
    } finally {
      const left = this.pending.get(asset)! - amount;
      if (left === 0) this.pending.delete(asset);
      else this.pending.set(asset, left);
    }
  }
}

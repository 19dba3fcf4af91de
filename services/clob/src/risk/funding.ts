// Operator deposits and withdrawals: written to Postgres (operator_transfers, which a trigger
// turns into ledger entries and balances) and applied to the risk book. After a restart the risk
// book is rebuilt from the ledger's balances (recovery/), not from here.
//
// A transfer may carry the caller's idempotency key (`idempotency_key`): a retry of one already
// written is answered `replayed` and changes nothing (requests with one key run in turn, and the
// unique column decides between processes); the same key for another transfer is a
// IdempotencyKeyConflict.
//
// A write whose answer is lost (the connection cut after the commit, say) may or may not have
// committed, so every transfer is written under a key (the caller's, else one made here) and such
// a write is sent again under it until Postgres answers. The key's unique index settles it: the
// second insert waits while the first is still in flight, and is a no-op if the first committed.
// Meanwhile a withdrawal stays debited and a deposit uncredited. A request still unsettled after
// `settleMs` is answered Unsettled (503, naming the key to send again) while the writing goes on.
// No error is taken as "not written": a withdrawal that had committed would be credited back, and
// could be withdrawn again.

import { randomUUID } from 'node:crypto';
import { OutcomeUnknown, settledWrite, type Sql } from '@pmx/db';
import type { RiskBook } from '@pmx/risk';
import { KeyedTurns } from '../keyed-turns.ts';
import { logger } from '@pmx/config';

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

  private closed = false;

  constructor(
    private readonly sql: Sql,
    private readonly risk: RiskBook,
    private readonly options: {
      log?: (line: string) => void;
      /** Waits between the writes of a transfer whose outcome is unknown: attempt 1, 2, … */
      backoffMs?: (attempt: number) => number;
      /** How long a request waits for its transfer to settle before it is answered Unsettled. */
      settleMs?: number;
    } = {},
  ) {}

  /** Transfers still settling an unknown outcome give up (a stop; the ledger decides at the next start). */
  close(): void {
    this.closed = true;
  }

  /**
   * Requests with the same idempotency key, one at a time: a retry that arrived while the first was
   * still being written found no row, and was refused by the balance the first had already taken.
   */
  private readonly turns = new KeyedTurns();

  /** `refused`, and nothing written, when the deposit would take a total past exact integers. */
  deposit(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    const key = idempotencyKey ?? autoKey();
    return this.answered(
      key,
      this.turns.run(key, () =>
        this.depositNow(address.toLowerCase(), asset, amount, key, idempotencyKey !== undefined),
      ),
    );
  }

  /** Only what is not reserved by open orders can be withdrawn. */
  withdraw(address: string, asset: string, amount: number, idempotencyKey?: string): Promise<TransferOutcome> {
    const key = idempotencyKey ?? autoKey();
    return this.answered(
      key,
      this.turns.run(key, () =>
        this.withdrawNow(address.toLowerCase(), asset, amount, key, idempotencyKey !== undefined),
      ),
    );
  }

  /** The transfer's outcome, or Unsettled once it has taken `settleMs` (it goes on, in its key's turn). */
  private answered(key: string, work: Promise<TransferOutcome>): Promise<TransferOutcome> {
    const settleMs = this.options.settleMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Unsettled(key, 'Postgres has not answered yet; the transfer goes on'));
        work.then(
          (outcome) => this.log(`transfer ${key}: settled late (${outcome})`),
          (error: unknown) => this.log(`transfer ${key}: failed late (${describe(error)})`),
        );
      }, settleMs);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private async depositNow(
    who: string,
    asset: string,
    amount: number,
    key: string,
    callersKey: boolean,
  ): Promise<TransferOutcome> {
    if (callersKey && (await this.written(key, who, asset, amount))) return 'replayed';
    // Transfers still on their way count (to any address, and of other assets, since supplies
    // bound each other: RiskBook.canCredit): two deposits that each fit but not together must not
    // both be written, or the second could not be credited after its commit.
    if (!this.risk.canCredit(who, asset, amount, this.pending)) return 'refused';
    const inserted = await this.holding(asset, amount, () => this.writeOnce(who, asset, amount, key));
    if (!inserted) return this.replayOf(key, who, asset, amount);
    this.risk.credit(who, asset, amount);
    return 'applied';
  }

  private async withdrawNow(
    who: string,
    asset: string,
    amount: number,
    key: string,
    callersKey: boolean,
  ): Promise<TransferOutcome> {
    if (callersKey && (await this.written(key, who, asset, -amount))) return 'replayed';
    if (!this.risk.debit(who, asset, amount)) return 'refused';
    let inserted: boolean;
    try {
      inserted = await this.holding(asset, amount, () => this.writeOnce(who, asset, -amount, key));
    } catch (error) {
      // Not written (Unsettled aside: the ledger may have it). Fits: deposits meanwhile left this amount free.
      if (!(error instanceof Unsettled)) this.risk.credit(who, asset, amount);
      throw error;
    }
    if (inserted) return 'applied';
    this.risk.credit(who, asset, amount); // another request with this id was written first
    return this.replayOf(key, who, asset, -amount);
  }

  /**
   * The insert, once (settledWrite): false when a transfer with this key was already written
   * before it. Once resent it is written, by the resending or the sending whose answer was lost
   * (the key is this request's: the caller's, checked unwritten above, with its requests one at a
   * time, or one made here).
   */
  private async writeOnce(address: string, asset: string, signed: number, key: string): Promise<boolean> {
    try {
      const { value, resent } = await settledWrite(() => this.insert(address, asset, signed, key), {
        backoffMs: this.options.backoffMs,
        stopped: () => this.closed,
        onLost: (error) =>
          this.log(
            `transfer ${key} of ${signed} ${asset} for ${address}: the write's answer was lost (${describe(error)}); writing it again until Postgres answers (the amount is held meanwhile)`,
          ),
      });
      if (resent) this.log(`transfer ${key}: written`);
      return resent || value;
    } catch (error) {
      if (error instanceof OutcomeUnknown)
        throw new Unsettled(key, 'the server is stopping; the ledger has the outcome');
      throw error;
    }
  }

  private log(line: string): void {
    if (this.options.log !== undefined) this.options.log(line);
    else logger('clob.funding').warn(line);
  }

  /** Whether a transfer with this id is written; throws if it is another transfer. */
  private async written(idempotencyKey: string, address: string, asset: string, signed: number): Promise<boolean> {
    const [row] = await this.sql<{ address: string; asset: string; amount: string }[]>`
      SELECT address, asset, amount::text FROM operator_transfers WHERE idempotency_key = ${idempotencyKey}`;
    if (row === undefined) return false;
    if (row.address !== address || row.asset !== asset || row.amount !== String(signed))
      throw new IdempotencyKeyConflict(idempotencyKey);
    return true;
  }

  private async replayOf(
    idempotencyKey: string,
    address: string,
    asset: string,
    signed: number,
  ): Promise<TransferOutcome> {
    if (!(await this.written(idempotencyKey, address, asset, signed)))
      throw new Error(`transfer ${idempotencyKey}: neither written nor found`);
    return 'replayed';
  }

  /** False when a transfer with this id is already written (nothing is inserted then). */
  private async insert(address: string, asset: string, signed: number, idempotencyKey: string): Promise<boolean> {
    const rows = await this.sql`
      INSERT INTO operator_transfers (address, asset, amount, idempotency_key) VALUES (${address}, ${asset}, ${signed}, ${idempotencyKey})
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

/**
 * A transfer not settled when its request must be answered: it may be in the ledger or not. Its
 * key, sent again with the same transfer, tells (once settled) without applying it twice.
 */
export class Unsettled extends Error {
  constructor(
    readonly key: string,
    why: string,
  ) {
    super(
      `the transfer is not settled yet (${why}): send it again with idempotency_key ${key} to learn its outcome; it will not apply twice`,
    );
  }
}

/** The key of a transfer sent without one (so that a lost answer can be settled). */
function autoKey(): string {
  return `auto-${randomUUID()}`;
}

function describe(error: unknown): string {
  return error instanceof Error
    ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
    : String(error);
}

// A ledger written as ingest writes it, from the real engine's events (EngineShard) applied by the
// real ShardLedger, without the HTTP front: for tests that need many positions quickly. Every
// batch commits with its pmx_ledger notification, as in production.
import { expect } from 'vitest';
import type { Sql } from '@pmx/db';
import { MarketDirectory, ShardLedger } from '@pmx/ingest';
import { deposit, EngineShard, insertMarket, testMarket, type BatchOps, type TestMarket } from '@pmx/ingest/testing';
import { Side, type TokenIndex } from '@pmx/matching';

export class LedgerWriter {
  readonly shard = new EngineShard(0);
  private readonly ledger: ShardLedger;
  private clock = Date.now();
  private orders = 0;

  constructor(private readonly sql: Sql) {
    this.ledger = new ShardLedger(sql, 0, new MarketDirectory(sql));
  }

  async market(name: string): Promise<TestMarket> {
    const market = testMarket(name);
    await insertMarket(this.sql, market, this.shard);
    return market;
  }

  /** An operator deposit of collateral or tokens (base units). */
  fund(address: string, asset: string, amount: number): Promise<void> {
    return deposit(this.sql, address, asset, amount, this.shard);
  }

  /** Runs the commands as one shard batch and commits it to the ledger. */
  async batch(run: (ops: BatchOps) => void): Promise<void> {
    const job = this.shard.batch(++this.clock, run);
    if (job === null) return;
    expect((await this.ledger.apply(job)).kind).toBe('applied');
  }

  /** `seller` rests a SELL of `size` base units of the token at `price` ticks (0.01 each); `buyer` takes it all. */
  trade(
    ops: BatchOps,
    trade: { market: TestMarket; token: TokenIndex; seller: string; buyer: string; price: number; size: number },
  ): void {
    const n = ++this.orders;
    const common = { market: trade.market, token: trade.token, price: trade.price, size: trade.size };
    ops.place({ id: `sell-${n}`, owner: trade.seller, side: Side.SELL, ...common });
    const taken = ops.place({ id: `buy-${n}`, owner: trade.buyer, side: Side.BUY, ...common });
    if (!taken.ok || taken.filled !== trade.size) throw new Error(`order buy-${n} did not fill at once`);
  }
}

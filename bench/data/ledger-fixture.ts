// The ledger the data bench reads: one wallet with a position in each of 500 markets and one
// market with 10,000 holders, written as ingest writes it (real engine events through ShardLedger,
// each batch committed with its pmx_ledger notification). Deposits go in bulk (one statement per
// 2,000, the ledger's trigger for each row).
import type { Sql } from '@pmx/db';
import { MarketDirectory, ShardLedger } from '@pmx/ingest';
import { EngineShard, insertMarket, testMarket, TOKEN, type TestMarket } from '@pmx/ingest/testing';
import { Side } from '@pmx/matching';

const CHUNK = 2000;
const TRADES_PER_BATCH = 250;

export interface BenchLedger {
  /** The wallet with `positions` positions. */
  wallet: string;
  /** The market whose first token has `holders` holders. */
  crowded: string;
}

const address = (kind: string, i: number) => `0x${kind}${i.toString(16).padStart(39 - kind.length + 1, '0')}`;

export async function buildLedger(sql: Sql, counts: { positions: number; holders: number }): Promise<BenchLedger> {
  const shard = new EngineShard(0);
  const ledger = new ShardLedger(sql, 0, new MarketDirectory(sql));
  const seller = address('5e11e2', 0);
  const wallet = address('a11', 0);
  const holders = Array.from({ length: counts.holders }, (_, i) => address('b0', i));
  const markets: TestMarket[] = [];
  for (let i = 0; i < counts.positions; i++) {
    const market = testMarket(`bench-data-${i}`);
    await insertMarket(sql, market, shard);
    markets.push(market);
  }
  const crowded = testMarket('bench-data-crowded');
  await insertMarket(sql, crowded, shard);
  const holding = (i: number) => (1 + (i % 50)) * TOKEN;

  const deposits: [string, string, number][] = [
    [wallet, 'collateral', counts.positions * TOKEN],
    ...markets.map((m): [string, string, number] => [seller, m.tokens[0], TOKEN]),
    [seller, crowded.tokens[0], holders.reduce((sum, _, i) => sum + holding(i), 0)],
    ...holders.map((h, i): [string, string, number] => [h, 'collateral', holding(i)]),
  ];
  for (let i = 0; i < deposits.length; i += CHUNK) {
    const chunk = deposits.slice(i, i + CHUNK);
    await sql`INSERT INTO operator_transfers (address, asset, amount)
              SELECT * FROM unnest(${chunk.map((d) => d[0])}::text[], ${chunk.map((d) => d[1])}::text[],
                                   ${chunk.map((d) => d[2])}::numeric[])`;
    for (const [who, asset, amount] of chunk) shard.risk.credit(who, asset, amount);
  }

  let clock = Date.now();
  let n = 0;
  const trades: { market: TestMarket; buyer: string; price: number; size: number }[] = [
    ...markets.map((market, i) => ({ market, buyer: wallet, price: 10 + (i % 80), size: TOKEN })),
    ...holders.map((buyer, i) => ({ market: crowded, buyer, price: 50, size: holding(i) })),
  ];
  for (let i = 0; i < trades.length; i += TRADES_PER_BATCH) {
    const job = shard.batch(++clock, (ops) => {
      for (const t of trades.slice(i, i + TRADES_PER_BATCH)) {
        const common = { market: t.market, token: 0 as const, price: t.price, size: t.size };
        ops.place({ id: `s${++n}`, owner: seller, side: Side.SELL, ...common });
        const taken = ops.place({ id: `b${n}`, owner: t.buyer, side: Side.BUY, ...common });
        if (!taken.ok || taken.filled !== t.size) throw new Error(`bench trade ${n} did not fill`);
      }
    });
    const outcome = await ledger.apply(job!);
    if (outcome.kind !== 'applied') throw new Error(`batch ${i}: ${outcome.kind}`);
  }
  return { wallet, crowded: crowded.conditionId };
}

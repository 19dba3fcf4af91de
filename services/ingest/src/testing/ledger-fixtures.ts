// Test-only: markets and operator deposits in a test database, mirrored into an EngineShard's
// risk book, and a poll helper for things that happen on other connections.

import { createHash } from 'node:crypto';
import type { Sql } from '@pmx/db';
import { TICKS_PER_UNIT, type TickSize } from '@pmx/matching';
import type { EngineShard, TestMarket } from './engine-shard.ts';

export const TOKEN = 1_000_000;

function digits(seed: string): string {
  return BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`)
    .toString()
    .slice(0, 40);
}

export function testMarket(name: string, tickSize: TickSize = '0.01'): TestMarket {
  return {
    conditionId: `0x${createHash('sha256').update(`market:${name}`).digest('hex')}`,
    tokens: [digits(`${name}:yes`), digits(`${name}:no`)],
    outcomes: ['Yes', 'No'],
    tickSize,
    ticksPerUnit: TICKS_PER_UNIT[tickSize],
  };
}

export async function insertMarket(sql: Sql, market: TestMarket, shard?: EngineShard): Promise<void> {
  await sql`
    INSERT INTO markets (condition_id, question, token0, token1, outcome0, outcome1, tick_size, min_order_size)
    VALUES (${market.conditionId}, ${`Will ${market.conditionId.slice(0, 8)} happen?`}, ${market.tokens[0]}, ${market.tokens[1]},
            ${market.outcomes[0]}, ${market.outcomes[1]}, ${market.tickSize}, 0)`;
  shard?.addMarket(market);
}

/** An operator deposit (negative: withdrawal), as the front end records it. */
export async function deposit(
  sql: Sql,
  address: string,
  asset: string,
  amount: number,
  shard?: EngineShard,
): Promise<void> {
  await sql`INSERT INTO operator_transfers (address, asset, amount) VALUES (${address}, ${asset}, ${amount})`;
  if (shard === undefined) return;
  if (amount >= 0) shard.risk.credit(address, asset, amount);
  else if (!shard.risk.debit(address, asset, -amount))
    throw new Error(`${address} cannot withdraw ${-amount} ${asset}`);
}

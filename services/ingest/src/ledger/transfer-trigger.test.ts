// The operator-transfer trigger (migrations 003, 007) on real Postgres: a token withdrawal takes
// its share of the cost basis rounded down, as a sale does in positions.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { deposit, insertMarket, testMarket } from '../testing/ledger-fixtures.ts';

let db: TestDatabase;
const market = testMarket('transfer-trigger');
const [YES] = market.tokens;

beforeAll(async () => {
  db = await createTestDatabase();
  await insertMarket(db.sql, market);
});
afterAll(async () => {
  await db?.drop();
});

describe('a token withdrawal', () => {
  it('takes its share of the cost basis rounded down, keeping the base unit a round-up would lose', async () => {
    await deposit(db.sql, 'erin', YES, 3);
    // As if the 3 shares had been bought for 10 base units.
    await db.sql`UPDATE positions SET cost_basis = 10 WHERE address = 'erin' AND asset = ${YES}`;
    await deposit(db.sql, 'erin', YES, -2); // its share: 10 × 2 / 3 = 6.67, taken as 6
    const [position] = await db.sql<
      { size: string; cost_basis: string }[]
    >`SELECT size::text, cost_basis::text FROM positions WHERE address = 'erin' AND asset = ${YES}`;
    expect(position).toEqual({ size: '1', cost_basis: '4' });
  });
});

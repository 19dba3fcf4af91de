// The market registry's listing order against real Postgres: market id order, however creations
// that run together finish, so that a restart (which loads by id) lists the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, withCuttingLink, type TestDatabase } from '@pmx/testkit';
import { MarketRegistry, type MarketRecord, type NewMarket } from './market-registry.ts';

let db: TestDatabase;
/** The markets each test's `open` opened, in order (a shard would have them). */
const openedIds: string[] = [];
const opened = async (record: MarketRecord) => void openedIds.push(record.conditionId);

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

function market(n: number): NewMarket {
  const id = n.toString(16).padStart(2, '0');
  return {
    conditionId: `0x${id.repeat(32)}`,
    question: `Market ${n}?`,
    tokens: [`${n}01`, `${n}02`],
    outcomes: ['Yes', 'No'],
    tickSize: '0.01',
    minOrderSize: 5_000_000,
    negRisk: false,
  };
}

describe('MarketRegistry listing', () => {
  it('lists by market id when a creation with an earlier id finishes later (as a restart lists)', async () => {
    const registry = new MarketRegistry(db.sql);
    await registry.load();
    const first = await registry.create(market(1), opened);
    if (first === 'exists') throw new Error('market 1 exists');
    // Market 2 gets its id, then waits: an open transaction holds one of its token ids.
    const holder = await db.sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`INSERT INTO market_tokens (token_id, condition_id) VALUES (${market(2).tokens[0]}, ${first.conditionId})`;
      const slow = registry.create(market(2), opened);
      await expect
        .poll(
          async () =>
            (
              await db.sql`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO markets (%'`
            ).length,
        )
        .toBe(1);
      expect(await registry.create(market(3), opened)).toMatchObject({ conditionId: market(3).conditionId });
      await holder`ROLLBACK`;
      expect(await slow).toMatchObject({ conditionId: market(2).conditionId });
    } finally {
      holder.release();
    }
    const listed = registry.list().map((m) => m.question);
    expect(listed).toEqual(['Market 1?', 'Market 2?', 'Market 3?']);
    expect(registry.list().map((m) => m.marketId)).toEqual(
      [...registry.list().map((m) => m.marketId)].sort((a, b) => a - b),
    );
    const restarted = new MarketRegistry(db.sql);
    expect((await restarted.load()).map((m) => m.question)).toEqual(listed);
  });
});

describe('MarketRegistry loading again (a standby at its takeover)', () => {
  it('takes in only the markets made since, once each, keeping the records it had', async () => {
    const registry = new MarketRegistry(db.sql);
    const before = await registry.load();
    const count = before.length;
    const kept = before[0];
    // Another process (the active core) makes a market meanwhile.
    const other = new MarketRegistry(db.sql);
    await other.load();
    const made = await other.create(market(40), opened);
    if (made === 'exists') throw new Error('market 40 exists');
    const after = await registry.load();
    expect(after).toHaveLength(count + 1);
    expect(new Set(after.map((m) => m.conditionId)).size).toBe(count + 1);
    expect(after[0]).toBe(kept);
    expect(registry.get(made.conditionId)).toMatchObject({ question: 'Market 40?' });
  });
});

describe('MarketRegistry creation whose answer is lost', () => {
  it('takes in, on the retry, the market Postgres has from the creation whose answer was lost', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const registry = new MarketRegistry(sql);
      await registry.load();
      const lost = market(7);
      relay.cutNextCommit();
      await expect(registry.create(lost, opened)).rejects.toThrow();
      expect(relay.cuts()).toBe(1);
      expect(registry.get(lost.conditionId)).toBeUndefined();
      const retried = await registry.create(lost, opened);
      expect(retried).toMatchObject({ conditionId: lost.conditionId, tokens: lost.tokens, question: lost.question });
      expect(registry.get(lost.conditionId)).toBe(retried);
      expect(registry.list().filter((m) => m.conditionId === lost.conditionId)).toHaveLength(1);
      // Known now: another creation with it exists, as any other.
      expect(await registry.create(lost, opened)).toBe('exists');
      expect(await registry.create({ ...market(8), tokens: [lost.tokens[0], '999'] }, opened)).toBe('exists');
    });
  });
});

describe('MarketRegistry creation whose opening fails', () => {
  it('stores nothing when its shard refuses the opening, and a retry makes it', async () => {
    const registry = new MarketRegistry(db.sql);
    await registry.load();
    const wanted = market(20);
    const refuse = async () => {
      throw new Error('the shard refused');
    };
    await expect(registry.create(wanted, refuse)).rejects.toThrow('the shard refused');
    expect(registry.get(wanted.conditionId)).toBeUndefined();
    expect(await db.sql`SELECT 1 FROM markets WHERE condition_id = ${wanted.conditionId}`).toHaveLength(0);
    expect(await db.sql`SELECT 1 FROM market_tokens WHERE token_id = ${wanted.tokens[0]}`).toHaveLength(0);
    const made = await registry.create(wanted, opened);
    expect(made).toMatchObject({ conditionId: wanted.conditionId, state: 'open', payouts: null });
    expect(openedIds.at(-1)).toBe(wanted.conditionId);
    expect(await db.sql`SELECT state FROM markets WHERE condition_id = ${wanted.conditionId}`).toEqual([
      { state: 'open' },
    ]);
  });
});

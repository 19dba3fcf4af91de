// The replay check against a real ledger database: memory inside the window, one batched lookup
// at a time outside it, reload after a restart, and a refusal (not a guess) when the ledger is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '@pmx/db';
import { HttpError } from '@pmx/http';
import { createTestDatabase, type TestDatabase } from '@pmx/testkit';
import { DeadlineHeap } from './deadline-heap.ts';
import { KnownOrders, RECHECK_MS } from './known-orders.ts';

const WINDOW = 60_000;
let db: TestDatabase;
let clock = 1_800_000_000_000;
const now = () => clock;

async function ledgerOrder(orderId: string, signedAt: number | null): Promise<void> {
  await db.sql`
    INSERT INTO orders (order_id, market, token, asset_id, side, order_type, price_ticks, price, size, status, owner, signed_at, created_at, updated_at, shard, accepted_seq)
    VALUES (${orderId}, '0xm', 0, '1', 'BUY', 'GTC', 50, 0.5, 10, 'matched', '0xa', ${signedAt}, now(), now(), 0, 1)`;
}

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('DeadlineHeap', () => {
  it('gives ids back earliest deadline first, only once the deadline has passed', () => {
    const heap = new DeadlineHeap();
    const deadlines = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3001);
    deadlines.forEach((d, i) => heap.push(d, `id${i}`));
    expect(heap.popBefore(0)).toBeUndefined();
    const out: number[] = [];
    for (let id = heap.popBefore(1500); id !== undefined; id = heap.popBefore(1500))
      out.push(deadlines[Number(id.slice(2))]!);
    expect(out).toEqual([...out].sort((a, b) => a - b));
    expect(out).toEqual(deadlines.filter((d) => d < 1500).sort((a, b) => a - b));
    expect(heap.size).toBe(deadlines.filter((d) => d >= 1500).length);
  });
});

describe('KnownOrders', () => {
  it('answers orders signed inside the window from memory, without a lookup', () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    expect(known.has('0xa1', clock - WINDOW + 1)).toBe(false);
    expect(known.has('0xa2', clock + WINDOW)).toBe(false);
    known.add('0xa1', clock);
    expect(known.has('0xa1', clock)).toBe(true);
    expect(known.lookups).toBe(0);
  });

  it('forgets an id the engine refused; accepted again, it keeps its own deadline', () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    const start = clock;
    known.add('0xg1', start);
    known.forget('0xg1');
    expect(known.has('0xg1', start)).toBe(false);
    clock += WINDOW / 2;
    known.add('0xg1', start); // deadline: now + window, later than the first entry's
    clock = start + WINDOW + 1; // the first entry's deadline has passed
    expect(known.has('0xg1', start + WINDOW / 2)).toBe(true);
    expect(known.lookups).toBe(0);
  });

  it('keeps an accepted id until its timestamp has left the window and the ledger holds it, then asks the ledger', async () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    const signedAt = clock + 30_000;
    known.add('0xb1', signedAt);
    clock += 80_000; // still within the window of its own (future) timestamp
    expect(known.has('0xb1', signedAt)).toBe(true);
    clock += 20_000; // left the window, but ingest has not written it: it stays (a replay now is refused)
    expect(known.has('0xb1', signedAt)).toBe(true);
    await expect.poll(() => known.has('0xb1', signedAt)).toBe(true);
    clock += RECHECK_MS + 1;
    expect(known.has('0xb1', signedAt)).toBe(true);
    await ledgerOrder('0xb1', signedAt);
    clock += RECHECK_MS + 1; // checked again: the ledger holds it now, so memory lets it go
    known.has('0xb1', signedAt);
    await expect.poll(() => known.size).toBe(0);
    const answer = known.has('0xb1', signedAt);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
  });

  it('does not let a replay through while ingest is behind by more than the window', async () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    known.add('0xb2', clock);
    for (let step = 0; step < 10; step++) {
      clock += WINDOW;
      expect(known.has('0xb2', clock - WINDOW * (step + 1))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(known.lookups).toBe(0);
  });

  it('looks up old, far-future and unrepresentable timestamps, batching what waits', async () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    await ledgerOrder('0xc1', clock - 10 * WINDOW);
    await ledgerOrder('0xc3', null);
    const answers = [
      known.has('0xc1', clock - 10 * WINDOW),
      known.has('0xc2', clock + 10 * WINDOW),
      known.has('0xc3', 0),
      known.has('0xc1', clock - 10 * WINDOW),
    ];
    expect(await Promise.all(answers)).toEqual([true, false, true, true]);
    expect(known.lookups).toBe(1);
  });

  it('counts a twin accepted while its lookup was out as known', async () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    const answer = known.has('0xd1', 1);
    known.add('0xd1', 1);
    expect(await answer).toBe(true);
  });

  it('is seeded after a restart with what the ledger holds from the window on', async () => {
    await ledgerOrder('0xe1', clock - 1000);
    await ledgerOrder('0xe2', clock - 2 * WINDOW);
    const rows = await db.sql<
      { order_id: string; signed_at: string }[]
    >`SELECT order_id, signed_at FROM orders WHERE signed_at >= ${clock - WINDOW}`;
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    known.seed(
      rows.map((r) => ({ orderId: r.order_id, signedAt: Number(r.signed_at) })),
      clock - WINDOW,
    );
    expect(known.has('0xe1', clock - 1000)).toBe(true);
    expect(rows.map((r) => r.order_id)).not.toContain('0xe2');
    expect(await known.has('0xe2', clock - 2 * WINDOW)).toBe(true);
    // The wall clock steps back by a window: 0xe2's timestamp is inside it again, but it was not
    // loaded, so the ledger is asked.
    clock -= WINDOW;
    const answer = known.has('0xe2', clock - WINDOW);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    clock += WINDOW;
  });

  it('asks the ledger about an id it let go of when the wall clock steps back', async () => {
    const known = new KnownOrders(db.sql, { windowMs: WINDOW, now });
    const signedAt = clock;
    known.add('0xf1', signedAt);
    await ledgerOrder('0xf1', signedAt);
    clock += WINDOW + 1;
    known.has('0xother', clock); // evicts: the ledger holds 0xf1, so memory lets it go
    await expect.poll(() => known.size).toBe(0);
    clock -= 2_000; // NTP steps the clock back: 0xf1's timestamp is within the window again
    const answer = known.has('0xf1', signedAt);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(true);
    expect(known.has('0xnew', clock)).toBe(false); // newer timestamps are still answered from memory
  });

  it('refuses with a retryable 503 when the ledger cannot be asked', async () => {
    const sql = connectPostgres(db.url, { max: 1 });
    await sql.end();
    const known = new KnownOrders(sql, { windowMs: WINDOW, now });
    const answer = known.has('0xf1', 0);
    await expect(answer).rejects.toBeInstanceOf(HttpError);
    await expect(answer).rejects.toMatchObject({ status: 503 });
  });
});

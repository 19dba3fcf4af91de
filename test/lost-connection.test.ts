// A Postgres connection lost inside a transaction (a network cut, a server restart, a backend
// ended by an operator or a timeout) fails the transaction's statements, and the process lives on.
// postgres.js 3.4.9 wrote its own ROLLBACK to the closed socket from a timer and threw out of it,
// crashing ingest and the clob (porsager/postgres#1208; pmx patches it, patches/postgres@3.4.9.patch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '@pmx/db';
import { listTrades } from '@pmx/ledger';
import { createTestDatabase, withCuttingLink, type TestDatabase } from '@pmx/testkit';

let db: TestDatabase;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  db = await createTestDatabase();
  process.on('uncaughtException', record);
});

afterAll(async () => {
  process.off('uncaughtException', record);
  await db?.drop();
});

/** A pool of two through a link that cuts on cue; closed after `run`. */
function through(run: (link: { sql: Sql; cutAll: () => void }) => Promise<void>): Promise<void> {
  return withCuttingLink(db.url, ({ sql, relay }) => run({ sql, cutAll: relay.cutAll }), { max: 2 });
}

describe('a connection lost inside a transaction', () => {
  it('fails the transaction (cut between two statements), and the pool goes on', async () => {
    await through(async ({ sql, cutAll }) => {
      const failed = sql.begin(async (tx) => {
        await tx`SELECT 1`;
        cutAll();
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx`SELECT 2`;
      });
      await expect(failed).rejects.toMatchObject({ code: expect.stringMatching(/^CONNECTION_/) });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await sql`SELECT 3 AS n`).toEqual([{ n: 3 }]);
    });
    expect(uncaught).toEqual([]);
  });

  it('fails the transaction when Postgres ends its backend (a restart, an operator, a timeout)', async () => {
    await through(async ({ sql }) => {
      const failed = sql.begin(async (tx) => {
        const [{ pid }] = await tx<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await db.sql`SELECT pg_terminate_backend(${pid})`;
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx`SELECT 2`;
      });
      await expect(failed).rejects.toBeInstanceOf(Error);
      expect(await sql`SELECT 3 AS n`).toEqual([{ n: 3 }]);
    });
    expect(uncaught).toEqual([]);
  });

  it('leaves the pool whole: with one connection, two lost transactions in a row and then a query (a lost one kept its connection for ever)', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      for (let i = 0; i < 2; i++) {
        const failed = sql.begin(async (tx) => {
          await tx`SELECT 1`;
          relay.cutAll();
          await new Promise((resolve) => setTimeout(resolve, 50));
          await tx`SELECT 2`;
        });
        await expect(failed).rejects.toMatchObject({ code: expect.stringMatching(/^CONNECTION_/) });
      }
      expect(await sql`SELECT 3 AS n`).toEqual([{ n: 3 }]);
      // A reserved connection lost and then released goes back closed, to be connected again.
      const reserved = await sql.reserve();
      await reserved`SELECT 4`;
      relay.cutAll();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(reserved`SELECT 5`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      reserved.release();
      expect(await sql`SELECT 6 AS n`).toEqual([{ n: 6 }]);
    });
    expect(uncaught).toEqual([]);
  }, 15_000);

  it('a lost reservation released late leaves alone the reservation that has its connection now', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const first = await sql.reserve();
      await first`SELECT 1`;
      relay.cutAll();
      await expect(first`SELECT 2`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      const second = await sql.reserve(); // the same connection, connected again
      first.release();
      await second`BEGIN`;
      await second`CREATE TEMP TABLE held (n int)`;
      // A pool query waits for the reservation: it would otherwise run inside its transaction.
      const plain = sql`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'held' AND relpersistence = 't'`;
      const early = await Promise.race([
        plain.then(() => 'ran'),
        new Promise((resolve) => setTimeout(() => resolve('waited'), 300)),
      ]);
      expect(early).toBe('waited');
      await second`ROLLBACK`;
      second.release();
      expect(await plain).toEqual([{ n: 0 }]);
    });
    expect(uncaught).toEqual([]);
  });

  it('a reservation waiting for the pool when its connection is lost gets one', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const holder = await sql.reserve();
      await holder`SELECT 1`;
      const waiting = sql.reserve();
      relay.cutAll();
      await new Promise((resolve) => setTimeout(resolve, 50));
      holder.release();
      const next = await Promise.race([
        waiting,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3000)),
      ]);
      expect(next).toBeDefined();
      expect(await next!`SELECT 7 AS n`).toEqual([{ n: 7 }]);
      next!.release();
    });
    expect(uncaught).toEqual([]);
  });

  it('a reservation refused while Postgres is out of reach leaves the pool whole once it is back', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const holder = await sql.reserve();
      await holder`SELECT 1`;
      const waiting = sql.reserve();
      relay.close();
      relay.cutAll();
      await expect(waiting).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      holder.release();
      await relay.reopen();
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the pool connects again meanwhile
      const answer = await Promise.race([
        sql`SELECT 8 AS n`,
        new Promise((resolve) => setTimeout(() => resolve('no answer'), 5000)),
      ]);
      expect(answer).toEqual([{ n: 8 }]);
    });
    expect(uncaught).toEqual([]);
  }, 20_000);

  it('fails a GET /data/trades page read (a transaction of its own) with the error, not a crash', async () => {
    await through(async ({ sql, cutAll }) => {
      expect((await listTrades(sql, { address: '0x0000000000000000000000000000000000000001' })).data).toEqual([]);
      cutAll();
      await expect(listTrades(sql, { address: '0x0000000000000000000000000000000000000001' })).rejects.toBeInstanceOf(
        Error,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await listTrades(sql, { address: '0x0000000000000000000000000000000000000001' })).data).toEqual([]);
    });
    expect(uncaught).toEqual([]);
  });
});

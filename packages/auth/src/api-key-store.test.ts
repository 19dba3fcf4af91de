// The API-key store against a real Postgres: the cache never outlives a delete, and a delete
// Postgres refuses gives the key back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknown } from '@pmx/db';
import { createTestDatabase, withCuttingLink, type TestDatabase } from '@pmx/testkit';
import { ApiKeyStore } from './api-key-store.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('ApiKeyStore', () => {
  it('creates, looks up (cached and not) and deletes a key', async () => {
    const issuer = new ApiKeyStore(db.sql);
    const record = await issuer.create(wallet(1), '0');
    if (record === 'exists') throw new Error('fresh wallet');
    expect(await issuer.create(wallet(1), '0')).toBe('exists');
    const reader = new ApiKeyStore(db.sql);
    expect(await reader.lookup(record.apiKey)).toEqual(record);
    expect(await issuer.delete(record.apiKey)).toBe(true);
    expect(await issuer.lookup(record.apiKey)).toBeUndefined();
  });

  it('asks Postgres once about a made-up key, however often it is sent', async () => {
    let queries = 0;
    const counting = ((...args: Parameters<typeof db.sql>) => {
      queries++;
      return (db.sql as (...a: unknown[]) => unknown)(...args);
    }) as unknown as typeof db.sql;
    const store = new ApiKeyStore(counting);
    const madeUp = '0f0f0f0f-0000-4000-8000-000000000000';
    for (let i = 0; i < 5; i++) expect(await store.lookup(madeUp)).toBeUndefined();
    expect(queries).toBe(1);
    // A real key, issued afterwards elsewhere, is found on its first use.
    const record = await new ApiKeyStore(db.sql).create(wallet(3), '0');
    if (record === 'exists') throw new Error('fresh wallet');
    expect(await store.lookup(record.apiKey)).toEqual(record);
  });

  it('does not bring back a key whose lookup was in flight when it was deleted', async () => {
    const issuer = new ApiKeyStore(db.sql);
    const record = await issuer.create(wallet(2), '0');
    if (record === 'exists') throw new Error('fresh wallet');
    const store = new ApiKeyStore(db.sql);
    // The lookup's SELECT goes out first and sees the row; the delete clears the cache before
    // that answer comes back.
    const [seen, deleted] = await Promise.all([store.lookup(record.apiKey), store.delete(record.apiKey)]);
    expect(deleted).toBe(true);
    expect(seen).toBeUndefined();
    expect(await store.lookup(record.apiKey)).toBeUndefined();
    expect(await db.sql`SELECT 1 FROM api_keys WHERE api_key = ${record.apiKey}`).toHaveLength(0);
  });

  it("deletes the key when the delete's answer is lost (its row is gone): it is not given back", async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const store = new ApiKeyStore(sql);
      const record = await store.create(wallet(40), '0');
      if (record === 'exists') throw new Error('fresh wallet');
      relay.cutNextCommit();
      expect(await store.delete(record.apiKey)).toBe(true);
      expect(relay.cuts()).toBe(1);
      expect(await store.lookup(record.apiKey)).toBeUndefined();
      expect(await db.sql`SELECT 1 FROM api_keys WHERE api_key = ${record.apiKey}`).toHaveLength(0);
    });
  });

  it('does not give back a key whose deletion stays unsettled (Postgres out of reach): it may be gone', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const store = new ApiKeyStore(sql, { settleMs: 300 });
      const record = await store.create(wallet(41), '0');
      if (record === 'exists') throw new Error('fresh wallet');
      relay.cutNextCommit(() => relay.close());
      await expect(store.delete(record.apiKey)).rejects.toBeInstanceOf(OutcomeUnknown);
      expect(await store.lookup(record.apiKey)).toBeUndefined();
    });
  });

  it('gives the key back when Postgres fails the delete, so its owner can retry', async () => {
    const store = new ApiKeyStore(db.sql);
    const record = await store.create(wallet(4), '0');
    if (record === 'exists') throw new Error('fresh wallet');
    await db.sql
      .unsafe(`CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
                         CREATE TRIGGER refuse_delete BEFORE DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION refuse_delete();`);
    try {
      const both = await Promise.allSettled([store.delete(record.apiKey), store.delete(record.apiKey)]);
      expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(store.isDeleted(record.apiKey)).toBe(false);
      expect(await store.lookup(record.apiKey)).toEqual(record);
    } finally {
      await db.sql.unsafe('DROP TRIGGER refuse_delete ON api_keys; DROP FUNCTION refuse_delete();');
    }
    const [first, second] = await Promise.all([store.delete(record.apiKey), store.delete(record.apiKey)]);
    expect([first, second]).toEqual([true, false]);
    expect(await store.lookup(record.apiKey)).toBeUndefined();
    expect(await store.delete(record.apiKey)).toBe(false);
  });
});

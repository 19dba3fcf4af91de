// The heartbeat switch store against real Postgres, through a link that loses an answer after the
// commit: a save whose answer is lost is stored, and said so (it was told "not armed" while its
// row was kept, and a restart then armed it and cancelled the bot's orders).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { OutcomeUnknown } from '@pmx/db';
import { createTestDatabase, withCuttingLink, type TestDatabase } from '@pmx/testkit';
import { HeartbeatStore } from './heartbeat-store.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('HeartbeatStore', () => {
  it('a save whose answer is lost resolves once Postgres answers it again: the switch is stored', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const store = new HeartbeatStore(sql);
      const [apiKey, id] = [randomUUID(), randomUUID()];
      await db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${apiKey}, ${'0x' + '12'.repeat(20)}, 0, 's', 'p')`;
      relay.cutNextCommit();
      await store.save(apiKey, id);
      expect(relay.cuts()).toBe(1);
      expect(await store.load()).toEqual([{ apiKey, heartbeatId: id }]);
    });
  });

  it('a save whose answer is lost while Postgres stays out of reach fails with OutcomeUnknown after its deadline', async () => {
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const store = new HeartbeatStore(sql, 300);
      const apiKey = randomUUID();
      await db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${apiKey}, ${'0x' + '13'.repeat(20)}, 0, 's', 'p')`;
      relay.cutNextCommit(() => relay.close());
      await expect(store.save(apiKey, randomUUID())).rejects.toBeInstanceOf(OutcomeUnknown);
    });
  });
});

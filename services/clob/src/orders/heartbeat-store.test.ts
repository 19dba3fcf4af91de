// The heartbeat switch store against real Postgres, through a link that loses an answer after the
// commit: a save whose answer is lost is stored, and said so (told "not armed" while its row is
// kept, a restart would arm it and cancel the bot's orders).
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

  it('a save held up in Postgres past its statement timeout never commits later (each sending is cancelled there)', async () => {
    const store = new HeartbeatStore(db.sql, 600, 200);
    const apiKey = randomUUID();
    await db.sql`INSERT INTO api_keys (api_key, address, nonce, secret, passphrase) VALUES (${apiKey}, ${'0x' + '14'.repeat(20)}, 0, 's', 'p')`;
    const holder = await db.sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`INSERT INTO heartbeat_switches (api_key, heartbeat_id) VALUES (${apiKey}, 'held')`;
      const failed = await store.save(apiKey, randomUUID()).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(OutcomeUnknown);
      await (failed as OutcomeUnknown).pending; // every sending given up on has settled (cancelled in Postgres)
      await holder`ROLLBACK`;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await store.load()).filter((s) => s.apiKey === apiKey)).toEqual([]);
    } finally {
      holder.release();
    }
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

// Proxy wallet registrations against real Postgres, through a link that loses an answer after
// the commit: memory ends as Postgres has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, withCuttingLink, type TestDatabase } from '@pmx/testkit';
import { ProxyUnsettled, ProxyWallets } from './proxy-wallets.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('ProxyWallets', () => {
  it('a move whose answer is lost ends moved, here as in Postgres (the old signer kept control, and its orders outlived a restart)', async () => {
    const [proxy, a, b] = ['0x' + 'a0'.repeat(20), '0x' + 'a1'.repeat(20), '0x' + 'b1'.repeat(20)];
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const wallets = new ProxyWallets(sql);
      expect(await wallets.register({ proxy, signer: a, signatureType: 2 })).toBe(true);
      relay.cutNextCommit();
      expect(await wallets.register({ proxy, signer: b, signatureType: 2 }, { replace: true, beforeMove: async () => {} })).toBe(true);
      expect(relay.cuts()).toBe(1);
      expect([wallets.controls(a, proxy, 2), wallets.controls(b, proxy, 2)]).toEqual([false, true]);
      expect(await db.sql`SELECT signer FROM proxy_wallets WHERE proxy = ${proxy}`).toEqual([{ signer: b }]);
    });
  });

  it('a move whose answer stays lost (Postgres out of reach) leaves the proxy to nobody', async () => {
    const [proxy, a, b] = ['0x' + 'c0'.repeat(20), '0x' + 'c1'.repeat(20), '0x' + 'd1'.repeat(20)];
    await withCuttingLink(db.url, async ({ sql, relay }) => {
      const wallets = new ProxyWallets(sql, 300);
      expect(await wallets.register({ proxy, signer: a, signatureType: 2 })).toBe(true);
      relay.cutNextCommit(() => relay.close());
      await expect(wallets.register({ proxy, signer: b, signatureType: 2 }, { replace: true, beforeMove: async () => {} })).rejects.toBeInstanceOf(ProxyUnsettled);
      expect([wallets.controls(a, proxy, 2), wallets.controls(b, proxy, 2)]).toEqual([false, false]);
    });
  });
});

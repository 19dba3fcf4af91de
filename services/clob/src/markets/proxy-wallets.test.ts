// Proxy wallet registrations against real Postgres, through a link that loses an answer after
// the commit: memory ends as Postgres has it. And who signed for a proxy when (migration 016): the
// moment of a move is a millisecond of its own, past signers' spans survive a restart, and a first
// registration raced by another front end leaves the overwritten signer its span.
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
      expect(
        await wallets.register({ proxy, signer: b, signatureType: 2 }, { replace: true, beforeMove: async () => {} }),
      ).toBe(true);
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
      await expect(
        wallets.register({ proxy, signer: b, signatureType: 2 }, { replace: true, beforeMove: async () => {} }),
      ).rejects.toBeInstanceOf(ProxyUnsettled);
      expect([wallets.controls(a, proxy, 2), wallets.controls(b, proxy, 2)]).toEqual([false, false]);
    });
  });
});

const spans = (wallets: ProxyWallets, signer: string) =>
  wallets.spansOf(signer).map(({ proxy, from, until }) => [proxy, from, until]);

describe('ProxyWallets spans', () => {
  it('moves at a millisecond no trade of either signer shares, and keeps the spans across a restart', async () => {
    // A clock that stands still at T until the move has read it, as a fast machine's can.
    const T = 1_800_000_000_000;
    let now = T;
    let reads = 0;
    const wallets = new ProxyWallets(db.sql, 10_000, () => (reads++ > 2 ? ++now : now));
    await wallets.load();
    await wallets.register({ proxy: '0xp1', signer: '0xa', signatureType: 2 });
    await wallets.register({ proxy: '0xp1', signer: '0xb', signatureType: 2 }, { replace: true });
    // A trade of the old signer stamped at T (the ms the move began in) is the old signer's.
    const [[, , until]] = spans(wallets, '0xa') as [[string, number, number]];
    expect(until).toBeGreaterThan(T);
    expect(spans(wallets, '0xb')).toEqual([['0xp1', until, Infinity]]);
    // The new signer took control only once that ms had come.
    expect(now).toBeGreaterThanOrEqual(until);
    // And back: the old signer has two spans, the new one one; a reload agrees.
    await wallets.register({ proxy: '0xp1', signer: '0xa', signatureType: 2 }, { replace: true });
    const reloaded = new ProxyWallets(db.sql);
    await reloaded.load();
    for (const signer of ['0xa', '0xb']) expect(spans(reloaded, signer).sort()).toEqual(spans(wallets, signer).sort());
    expect(spans(reloaded, '0xa')).toHaveLength(2);
    expect(spans(reloaded, '0xa').find(([, from]) => from === -Infinity)).toEqual(['0xp1', -Infinity, until]);
  });

  it('a change of signature type alone keeps the span', async () => {
    const wallets = new ProxyWallets(db.sql);
    await wallets.register({ proxy: '0xp2', signer: '0xc', signatureType: 1 });
    await wallets.register({ proxy: '0xp2', signer: '0xc', signatureType: 2 }, { replace: true });
    expect(spans(wallets, '0xc')).toEqual([['0xp2', -Infinity, Infinity]]);
    const [row] = await db.sql`SELECT isfinite(since) AS finite FROM proxy_wallets WHERE proxy = '0xp2'`;
    expect(row!.finite).toBe(false);
  });

  it('a first registration raced by another front end leaves the signer it overwrote a span', async () => {
    for (let run = 0; run < 10; run++) {
      const proxy = `0xrace${run}`;
      const [one, two] = [new ProxyWallets(db.sql), new ProxyWallets(db.sql)];
      await Promise.all([
        one.register({ proxy, signer: '0xd', signatureType: 2 }),
        two.register({ proxy, signer: '0xe', signatureType: 2 }),
      ]);
      const [current] = await db.sql<
        { signer: string; finite: boolean }[]
      >`SELECT signer, isfinite(since) AS finite FROM proxy_wallets WHERE proxy = ${proxy}`;
      const history = await db.sql<
        { signer: string }[]
      >`SELECT signer FROM proxy_wallet_history WHERE proxy = ${proxy}`;
      // Whichever came second moved it: the first keeps its span in the history.
      expect([current!.finite, history.map((h) => h.signer)]).toEqual([
        true,
        [current!.signer === '0xd' ? '0xe' : '0xd'],
      ]);
    }
  });
});

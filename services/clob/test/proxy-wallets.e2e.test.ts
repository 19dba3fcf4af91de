// Proxy wallets (signature types 1 and 2) end to end: registration, moves between signers, and
// what a move does to the orders the old signer placed for the proxy.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, sharedScenario, type Scenario } from '../src/testing/clob-harness.ts';
import { Trader, limit } from '@pmx/testkit';

const USDC = 1_000_000n;
const scenario = sharedScenario();
let { h, market, alice } = {} as Scenario;
beforeAll(() => void ({ h, market, alice } = scenario));

describe('proxy wallets', () => {
  it('signature types: 3 refused, 1 needs a registered proxy, 2 works once registered', async () => {
    const proxy = `0x${'ab'.repeat(20)}`;
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 3 }),
      /signature type 3/,
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 1, maker: proxy }),
      /not a registered proxy wallet/,
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), maker: proxy }),
      'the order maker has to be the signer for signature type 0',
    );
    expect(
      (await h.operator('POST', '/operator/proxy-wallets', { proxy, signer: alice.address, signature_type: 2 })).status,
    ).toBe(201);
    await h.deposit(proxy, 10n * USDC);
    const placed = await alice.placeOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.13', 10),
      signatureType: 2,
      maker: proxy,
    });
    expect(placed.body.status).toBe('live');
    expect((await alice.authed('GET', `/data/order/${placed.body.orderID}`)).body.maker_address).toBe(proxy);
    // The balance that backs the proxy's orders, as the official client asks with its signature type.
    const balance = async (query: string) =>
      (await alice.authed('GET', `/balance-allowance?asset_type=COLLATERAL${query}`)).body;
    expect(await balance('&signature_type=2')).toMatchObject({
      balance: String(10n * USDC),
      allowance: String(10n * USDC - 1_300_000n),
    });
    expect((await balance('&signature_type=0')).balance).toBe((await balance('')).balance);
    expect(await balance('&signature_type=1')).toEqual({
      error: `no proxy wallet of signature type 1 is registered for ${alice.address.toLowerCase()}`,
    });
    expect(await balance('&signature_type=3')).toEqual({ error: 'signature_type must be 0, 1 or 2' });
  });

  it("a registered proxy moves to another signer or type only when asked to (a swapped argument handed one user's balance to another)", async () => {
    const proxy = `0x${randomBytes(20).toString('hex')}`;
    const bob = `0x${randomBytes(20).toString('hex')}`;
    const register = (fields: Record<string, unknown>) =>
      h.operator('POST', '/operator/proxy-wallets', { proxy, signer: alice.address, signature_type: 2, ...fields });
    expect((await register({})).status).toBe(201);
    expect((await register({})).status).toBe(200); // a retry changes nothing
    const conflict = `proxy ${proxy} is registered to signer ${alice.address.toLowerCase()} (signature type 2); send replace: true to move it`;
    expect(await register({ signer: bob })).toMatchObject({ status: 409, body: { error: conflict } });
    expect(await register({ signature_type: 1 })).toMatchObject({ status: 409, body: { error: conflict } });
    expect((await register({ replace: 'yes' })).status).toBe(400);
    expect((await register({ signer: bob, replace: true })).status).toBe(201);
    expect(await h.sql`SELECT signer FROM proxy_wallets WHERE proxy = ${proxy}`).toEqual([{ signer: bob }]);
    await h.deposit(proxy, 10n * USDC);
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 2, maker: proxy }),
      /not a registered proxy wallet/,
    );
  });

  it("cancels the old signer's orders for a proxy moved to another signer (nobody could cancel them after), keeping the old signer's own", async () => {
    const proxy = `0x${randomBytes(20).toString('hex')}`;
    const bob = new Trader(h.url);
    await bob.createApiKey();
    const register = (signer: string, replace?: boolean) =>
      h.operator('POST', '/operator/proxy-wallets', {
        proxy,
        signer,
        signature_type: 2,
        ...(replace === undefined ? {} : { replace }),
      });
    expect((await register(alice.address)).status).toBe(201);
    await h.deposit(proxy, 10n * USDC);
    const forProxy = (
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 2, maker: proxy })
    ).body.orderID as string;
    const own = (await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.14', 10) })).body.orderID as string;
    const status = async (id: string) => (await alice.authed('GET', `/data/order/${id}`)).body.status;
    expect([await status(forProxy), await status(own)]).toEqual(['LIVE', 'LIVE']);

    expect((await register(bob.address, true)).status).toBe(201);
    expect(await status(forProxy)).toBe('CANCELED');
    expect(await status(own)).toBe('LIVE'); // alice's own orders are hers
    const proxyBalance = (await bob.authed('GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=2')).body;
    expect(proxyBalance).toMatchObject({ balance: String(10n * USDC), allowance: String(10n * USDC) });
    expect(
      (await bob.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 2, maker: proxy })).body
        .status,
    ).toBe('live');
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.13', 10), signatureType: 2, maker: proxy }),
      /not a registered proxy wallet/,
    );
    // A change of signature type for the same signer keeps its orders (it can cancel them).
    const kept = (
      await bob.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.12', 10), signatureType: 2, maker: proxy })
    ).body.orderID as string;
    expect(
      (
        await h.operator('POST', '/operator/proxy-wallets', {
          proxy,
          signer: bob.address,
          signature_type: 1,
          replace: true,
        })
      ).status,
    ).toBe(201);
    expect((await bob.authed('GET', `/data/order/${kept}`)).body.status).toBe('LIVE');
    await bob.authed('DELETE', '/cancel-all');
    await alice.authed('DELETE', '/order', { orderID: own });
  });

  it('a proxy move racing an order of the proxy that ends on its own (an FAK with nothing to take) succeeds every time', async () => {
    const proxy = `0x${randomBytes(20).toString('hex')}`;
    const bob = new Trader(h.url);
    await bob.createApiKey();
    const signers = [alice, bob];
    expect(
      (await h.operator('POST', '/operator/proxy-wallets', { proxy, signer: alice.address, signature_type: 2 })).status,
    ).toBe(201);
    await h.deposit(proxy, 100n * USDC);
    const moves: number[] = [];
    for (let i = 0; i < 40; i++) {
      const [signer, next] = [signers[i % 2]!, signers[(i + 1) % 2]!];
      const fak = await signer.signOrder({
        tokenId: market.yes,
        ...limit('BUY', '0.01', 10),
        signatureType: 2,
        maker: proxy,
        orderType: 'FAK',
      });
      // The move starts 0–5.5 ms after the order: now before, now while, now after it is in its shard.
      const [, moved] = await Promise.all([
        signer.authed('POST', '/order', fak),
        new Promise((resolve) => setTimeout(resolve, (i % 12) * 0.5)).then(() =>
          h.operator('POST', '/operator/proxy-wallets', {
            proxy,
            signer: next.address,
            signature_type: 2,
            replace: true,
          }),
        ),
      ]);
      moves.push(moved.status);
    }
    expect(moves.filter((status) => status !== 201)).toEqual([]);
  });

  it("a signer splits and merges its proxy's balance with the proxy's signature type, as its orders spend it", async () => {
    const proxy = `0x${randomBytes(20).toString('hex')}`;
    expect(
      (await h.operator('POST', '/operator/proxy-wallets', { proxy, signer: alice.address, signature_type: 1 })).status,
    ).toBe(201);
    await h.deposit(proxy, 10n * USDC);
    const own = (await alice.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body.balance;
    const split = await alice.authed('POST', '/split', {
      market: market.conditionId,
      amount: String(5n * USDC),
      signature_type: 1,
    });
    expect(split.status).toBe(200);
    expect(split.body.balances.collateral.balance).toBe(String(5n * USDC));
    expect((await alice.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body.balance).toBe(own);
    const sold = await alice.placeOrder({
      tokenId: market.yes,
      ...limit('SELL', '0.90', 5),
      signatureType: 1,
      maker: proxy,
    });
    expect(sold.body, JSON.stringify(sold.body)).toMatchObject({ status: 'live' });
    // The proxy's Yes tokens rest in that order: a merge of them is refused with the figure.
    expectRejected(
      await alice.authed('POST', '/merge', { market: market.conditionId, amount: String(USDC), signature_type: 1 }),
      `not enough balance / allowance: 0 of token ${market.yes} available, 1000000 asked (base units)`,
    );
    await alice.authed('DELETE', '/order', { orderID: sold.body.orderID });
    const merged = await alice.authed('POST', '/merge', {
      market: market.conditionId,
      amount: String(5n * USDC),
      signature_type: 1,
    });
    expect(merged.body.balances.collateral.balance).toBe(String(10n * USDC));
    // Earlier tests gave alice several proxies of type 2: which one would be ambiguous.
    expectRejected(
      await alice.authed('POST', '/split', { market: market.conditionId, amount: '1', signature_type: 2 }),
      /^several proxy wallets of signature type 2 are registered for/,
    );
  });
});

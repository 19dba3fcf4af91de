// The official TypeScript client (@polymarket/clob-client-v2) against the real server through the
// edge, as a market maker would reach it, unchanged but for an axios request interceptor that
// renames its POLY_ headers to SVC_.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AssetType, ClobClient, OrderType, Side } from '@polymarket/clob-client-v2';
import { createWalletClient, custom } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE, Trader } from '@pmx/testkit';
import type { Harness } from '@pmx/clob/testing';
import { startClobBehindEdge, type ClobBehindEdge } from './clob-behind-edge.ts';

const USDC = 1_000_000n;
let h: Harness;
let served: ClobBehindEdge;
/** The edge in front of the clob. */
let url: string;
let market: { conditionId: string; yes: string; no: string };

type Axios = { interceptors: { request: { use: (f: (c: any) => any) => number; eject: (id: number) => void } } };
let axios: Axios;

/** The axios instance the client itself imports (its ES module build), so the interceptor sees its requests. */
async function clientAxios(): Promise<Axios> {
  const fromClient = createRequire(createRequire(import.meta.url).resolve('@polymarket/clob-client-v2'));
  const root = dirname(fromClient.resolve('axios/package.json'));
  const entry: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports['.'].default.default;
  const module = await import(pathToFileURL(join(root, entry)).href);
  return module.default as Axios;
}

function wallet(privateKey = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey);
  return createWalletClient({
    account,
    transport: custom({
      request: async () => {
        throw new Error('no RPC: the account signs locally');
      },
    }),
  });
}

let interceptor: number;

beforeAll(async () => {
  served = await startClobBehindEdge();
  ({ h, url } = served);
  market = await h.createMarket();
  axios = await clientAxios();
  interceptor = axios.interceptors.request.use((config) => {
    for (const name of Object.keys(config.headers.toJSON())) {
      if (!/^POLY_/i.test(name)) continue;
      const value = config.headers.get(name);
      config.headers.delete(name);
      config.headers.set(name.replace(/^POLY_/i, 'SVC_'), value);
    }
    return config;
  });
});
afterAll(async () => {
  axios?.interceptors.request.eject(interceptor);
  await served?.close();
});

describe('the official client', () => {
  it('gets API keys, places a resting order, is crossed by a second wallet, reads the book, lists and cancels', async () => {
    const makerWallet = wallet();
    const takerWallet = wallet();
    const bootstrap = new ClobClient({ host: url, chain: 137, signer: makerWallet as never, throwOnError: true });
    const makerCreds = await bootstrap.createOrDeriveApiKey();
    expect(makerCreds.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bootstrap.deriveApiKey()).toEqual(makerCreds);
    const takerCreds = await new ClobClient({
      host: url,
      chain: 137,
      signer: takerWallet as never,
      throwOnError: true,
    }).createOrDeriveApiKey();

    await h.deposit(makerWallet.account.address, 100n * USDC);
    await h.deposit(takerWallet.account.address, 50n * USDC, market.yes);
    const maker = new ClobClient({
      host: url,
      chain: 137,
      signer: makerWallet as never,
      creds: makerCreds,
      throwOnError: true,
    });
    const taker = new ClobClient({
      host: url,
      chain: 137,
      signer: takerWallet as never,
      creds: takerCreds,
      throwOnError: true,
    });

    // What a market maker's bot does before it quotes: arm the dead-man's switch, check it may
    // trade, refresh and read its balance.
    const armed = await maker.postHeartbeat('');
    expect(armed.heartbeat_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await maker.postHeartbeat(armed.heartbeat_id)).toEqual({ heartbeat_id: armed.heartbeat_id });
    expect(await maker.getClosedOnlyMode()).toEqual({ closed_only: false });
    await maker.updateBalanceAllowance({ asset_type: AssetType.COLLATERAL });
    expect(await maker.getBalanceAllowance({ asset_type: AssetType.COLLATERAL })).toMatchObject({
      balance: String(100n * USDC),
    });

    const resting = await maker.createAndPostOrder(
      { tokenID: market.yes, price: 0.57, size: 20, side: Side.BUY },
      undefined,
      OrderType.GTC,
    );
    expect(resting).toMatchObject({ success: true, status: 'live' });

    const book = await maker.getOrderBook(market.yes);
    expect(book.bids).toEqual([{ price: '0.57', size: '20' }]);
    expect(await maker.getOrderBookHash(book)).toBe(book.hash);

    const crossing = await taker.createAndPostOrder(
      { tokenID: market.yes, price: 0.55, size: 12, side: Side.SELL },
      undefined,
      OrderType.GTC,
    );
    expect(crossing).toMatchObject({ success: true, status: 'matched', makingAmount: '12', takingAmount: '6.84' });
    expect(crossing.transactionsHashes).toHaveLength(1);
    const tokens = [
      { token_id: market.yes, side: Side.BUY },
      { token_id: market.no, side: Side.BUY },
    ];
    expect(await maker.getLastTradesPrices(tokens)).toEqual([
      { token_id: market.yes, price: '0.57' },
      { token_id: market.no, price: '0.43' },
    ]);
    expect(await maker.getMidpoints(tokens)).toEqual({ [market.yes]: '', [market.no]: '' });
    expect(await maker.getSpreads(tokens)).toEqual({ [market.yes]: '', [market.no]: '' });
    expect(await maker.getOk()).toBe('OK');

    const open = await maker.getOpenOrders({ market: market.conditionId });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: resting.orderID,
      original_size: '20',
      size_matched: '12',
      price: '0.57',
      side: 'BUY',
    });
    expect(await maker.getOrder(resting.orderID)).toMatchObject({ id: resting.orderID });

    const cancelled = await maker.cancelOrder({ orderID: resting.orderID });
    expect(cancelled).toEqual({ canceled: [resting.orderID], not_canceled: {} });
    expect(await maker.getOpenOrders()).toEqual([]);
    expect((await maker.getOrderBook(market.yes)).bids).toEqual([]);
    h.expectConsistent();
  });

  it('places a market BUY whose amounts imply a price between ticks', async () => {
    const sellerWallet = wallet();
    const buyerWallet = wallet();
    const seller = new ClobClient({ host: url, chain: 137, signer: sellerWallet as never, throwOnError: true });
    const buyer = new ClobClient({ host: url, chain: 137, signer: buyerWallet as never, throwOnError: true });
    const sellerAuthed = new ClobClient({
      host: url,
      chain: 137,
      signer: sellerWallet as never,
      creds: await seller.createOrDeriveApiKey(),
      throwOnError: true,
    });
    const buyerAuthed = new ClobClient({
      host: url,
      chain: 137,
      signer: buyerWallet as never,
      creds: await buyer.createOrDeriveApiKey(),
      throwOnError: true,
    });
    await h.deposit(sellerWallet.account.address, 100n * USDC, market.no);
    await h.deposit(buyerWallet.account.address, 20n * USDC);
    expect(
      await sellerAuthed.createAndPostOrder({ tokenID: market.no, price: 0.33, size: 100, side: Side.SELL }),
    ).toMatchObject({ status: 'live' });
    const bought = await buyerAuthed.createAndPostMarketOrder(
      { tokenID: market.no, amount: 10.55, side: Side.BUY },
      undefined,
      OrderType.FOK,
    );
    expect(bought).toMatchObject({ success: true, status: 'matched', takingAmount: '31.96' });
    expect(Number(bought.makingAmount)).toBeLessThanOrEqual(10.55);
    h.expectConsistent();
  });

  it('places market orders and balance-capped BUYs as a builder (it reads the builder fee rates first)', async () => {
    const builderCode = `0x${'ab'.repeat(32)}`;
    const market = await h.createMarket();
    const sellerWallet = wallet();
    const buyerWallet = wallet();
    const seller = new ClobClient({ host: url, chain: 137, signer: sellerWallet as never, throwOnError: true });
    const sellerAuthed = new ClobClient({
      host: url,
      chain: 137,
      signer: sellerWallet as never,
      creds: await seller.createOrDeriveApiKey(),
      throwOnError: true,
    });
    const buyerCreds = await new ClobClient({
      host: url,
      chain: 137,
      signer: buyerWallet as never,
      throwOnError: true,
    }).createOrDeriveApiKey();
    const buyer = new ClobClient({
      host: url,
      chain: 137,
      signer: buyerWallet as never,
      creds: buyerCreds,
      throwOnError: true,
      builderConfig: { builderCode },
    } as never);
    await h.deposit(sellerWallet.account.address, 100n * USDC, market.yes);
    await h.deposit(buyerWallet.account.address, 20n * USDC);
    expect(
      await sellerAuthed.createAndPostOrder({ tokenID: market.yes, price: 0.5, size: 50, side: Side.SELL }),
    ).toMatchObject({ status: 'live' });
    expect(
      await buyer.createAndPostMarketOrder(
        { tokenID: market.yes, amount: 5, side: Side.BUY },
        undefined,
        OrderType.FOK,
      ),
    ).toMatchObject({ success: true, status: 'matched', makingAmount: '5', takingAmount: '10' });
    expect(
      await buyer.createAndPostOrder({
        tokenID: market.yes,
        price: 0.5,
        size: 6,
        side: Side.BUY,
        userUSDCBalance: 15,
      } as never),
    ).toMatchObject({ success: true, status: 'matched' });
    h.expectConsistent();
  });

  it("reads a trader's balances through a market's whole life with the client's balance calls", async () => {
    const market = await h.createMarket();
    const privateKey = generatePrivateKey();
    const signer = wallet(privateKey);
    const creds = await new ClobClient({ host: url, chain: 137, signer: signer as never }).createOrDeriveApiKey();
    const client = new ClobClient({ host: url, chain: 137, signer: signer as never, creds, throwOnError: true });
    // The client has no custody calls: the same wallet and key send them as level-2 requests.
    const trader = new Trader(h.url, privateKey);
    trader.credentials = { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase };
    const custody = async (path: string, amount?: number) => {
      const body = { market: market.conditionId, ...(amount === undefined ? {} : { amount: String(amount * 1e6) }) };
      const response = await trader.authed('POST', path, body);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };
    const balances = async () => {
      const read = async (params: Parameters<typeof client.getBalanceAllowance>[0]) => {
        const { balance, allowances } = await client.getBalanceAllowance(params);
        return [Number(balance) / 1e6, Number(allowances[EXCHANGE]) / 1e6];
      };
      return {
        collateral: await read({ asset_type: AssetType.COLLATERAL }),
        yes: await read({ asset_type: AssetType.CONDITIONAL, token_id: market.yes }),
        no: await read({ asset_type: AssetType.CONDITIONAL, token_id: market.no }),
      };
    };
    await h.deposit(signer.account.address, 100n * USDC);
    await custody('/split', 30);
    expect(await balances()).toEqual({ collateral: [70, 70], yes: [30, 30], no: [30, 30] });
    const ask = await client.createAndPostOrder({ tokenID: market.yes, price: 0.6, size: 10, side: Side.SELL });
    expect(ask).toMatchObject({ status: 'live' });
    await custody('/merge', 15);
    expect(await balances()).toEqual({ collateral: [85, 85], yes: [15, 5], no: [15, 15] });
    expect((await h.operator('POST', `/operator/markets/${market.conditionId}/close`)).body.cancelled_orders).toBe(1);
    expect(await balances()).toEqual({ collateral: [85, 85], yes: [15, 15], no: [15, 15] });
    expect(
      (await h.operator('POST', `/operator/markets/${market.conditionId}/resolve`, { outcome: 'Yes' })).status,
    ).toBe(200);
    await custody('/redeem');
    expect(await balances()).toEqual({ collateral: [100, 100], yes: [0, 0], no: [0, 0] });
    h.expectConsistent();
  });
});

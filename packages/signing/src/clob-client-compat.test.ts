// Drives the official client (@polymarket/clob-client-v2) against a loopback server built on this
// package, and checks we accept exactly what it sends: L1 headers, L2 HMAC, order bodies and digests.
import { ClobClient, OrderType, Side, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import { createWalletClient, custom } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiCredentials, type ApiCredentials } from './api-credentials.ts';
import { verifyClobAuth } from './clob-auth.ts';
import { verifyL2 } from './l2-hmac.ts';
import { createOrderHasher, orderId, type OrderHasher, type SignedOrderFields } from './order-digest.ts';
import { recoverAddress, sameAddress } from './signer-recovery.ts';
import { startCaptureServer, type CaptureServer, type CapturedRequest } from './testing/capture-server.ts';
import { CHAIN_ID, EXCHANGE, NEG_RISK_EXCHANGE, viemOrderHash } from './testing/viem-oracle.ts';

const account = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const wallet = createWalletClient({
  account,
  transport: custom({
    request: async () => {
      throw new Error('no RPC in tests: local accounts sign locally');
    },
  }),
});
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const NEG_RISK_TOKEN = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
const CONDITION = '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1';
const SERVER_TIME = 1_700_000_123;
const ORDER_BODY_KEYS = ['deferExec', 'postOnly', 'order', 'owner', 'orderType'];
const ORDER_KEYS = [
  'salt',
  'maker',
  'signer',
  'tokenId',
  'makerAmount',
  'takerAmount',
  'side',
  'signatureType',
  'timestamp',
  'expiration',
  'metadata',
  'builder',
  'signature',
];

const hashers: Record<string, OrderHasher | undefined> = {
  [TOKEN]: createOrderHasher({ chainId: CHAIN_ID, verifyingContract: EXCHANGE }),
  [NEG_RISK_TOKEN]: createOrderHasher({ chainId: CHAIN_ID, verifyingContract: NEG_RISK_EXCHANGE }),
};

let server: CaptureServer;
let issued: ApiCredentials | undefined;
let creds: ApiKeyCreds;

const header = (request: CapturedRequest, name: string) => String(request.headers[name.toLowerCase()] ?? '');

function l1Valid(request: CapturedRequest): boolean {
  return verifyClobAuth({
    address: header(request, 'POLY_ADDRESS'),
    timestamp: header(request, 'POLY_TIMESTAMP'),
    nonce: header(request, 'POLY_NONCE'),
    signature: header(request, 'POLY_SIGNATURE'),
    chainId: CHAIN_ID,
  });
}

function l2Valid(request: CapturedRequest): boolean {
  return (
    issued !== undefined &&
    header(request, 'POLY_API_KEY') === issued.apiKey &&
    header(request, 'POLY_PASSPHRASE') === issued.passphrase &&
    sameAddress(header(request, 'POLY_ADDRESS'), account.address) &&
    verifyL2(
      issued.secret,
      { timestamp: header(request, 'POLY_TIMESTAMP'), method: request.method, path: request.path, body: request.body },
      header(request, 'POLY_SIGNATURE'),
    )
  );
}

/** What our server would do with one POST /order body: digest by the token's exchange, recover the signer. */
function placeResult(body: { order: SignedOrderFields & { signature: string } }) {
  const hasher = hashers[String(body.order.tokenId)];
  if (!hasher)
    return { success: false, errorMsg: 'unknown token', orderID: '', status: '', makingAmount: '', takingAmount: '' };
  const digest = hasher.hashOrder(body.order);
  const signer = recoverAddress(digest, body.order.signature);
  const ok = signer !== null && sameAddress(signer, body.order.signer);
  return {
    success: ok,
    errorMsg: ok ? '' : 'invalid signature',
    orderID: orderId(digest),
    status: 'live',
    makingAmount: '',
    takingAmount: '',
    tradeIDs: [],
    transactionsHashes: [],
  };
}

function installRoutes(routes: CaptureServer['routes']): void {
  const l2 = (answer: (request: CapturedRequest) => unknown) => (request: CapturedRequest) =>
    l2Valid(request) ? { json: answer(request) } : { status: 401, json: { error: 'Unauthorized/Invalid api key' } };
  routes.set('GET /version', () => ({ json: { version: 2 } }));
  routes.set('GET /time', () => ({ json: SERVER_TIME }));
  routes.set('GET /tick-size', () => ({ json: { minimum_tick_size: 0.01 } }));
  routes.set('GET /neg-risk', (r) => ({ json: { neg_risk: r.query.get('token_id') === NEG_RISK_TOKEN } }));
  routes.set('GET /markets-by-token/*', () => ({ json: { condition_id: CONDITION } }));
  routes.set('GET /clob-markets/*', () => ({
    json: {
      c: CONDITION,
      t: [
        { t: TOKEN, o: 'Yes' },
        { t: '1', o: 'No' },
      ],
      mts: 0.01,
      nr: false,
      fd: { r: 0, e: 0 },
    },
  }));
  routes.set('POST /auth/api-key', (r) => {
    if (!l1Valid(r)) return { status: 401, json: { error: 'Invalid L1 Request headers' } };
    if (issued) return { status: 400, json: { error: 'Could not create api key' } };
    issued = newApiCredentials();
    return { json: issued };
  });
  routes.set('GET /auth/derive-api-key', (r) =>
    l1Valid(r) && issued ? { json: issued } : { status: 401, json: { error: 'Invalid L1 Request headers' } },
  );
  routes.set(
    'POST /order',
    l2((r) => placeResult(JSON.parse(r.body.toString()))),
  );
  routes.set(
    'POST /orders',
    l2((r) => (JSON.parse(r.body.toString()) as Array<Parameters<typeof placeResult>[0]>).map(placeResult)),
  );
  const cancelled = l2((r) => ({ canceled: r.body.length ? [r.body.toString()] : [], not_canceled: {} }));
  for (const path of ['/order', '/orders', '/cancel-all', '/cancel-market-orders'])
    routes.set(`DELETE ${path}`, cancelled);
  routes.set(
    'GET /data/orders',
    l2((r) =>
      r.query.get('next_cursor') === 'MA=='
        ? { data: [{ id: 'a' }], next_cursor: 'MQ==', limit: 1, count: 1 }
        : { data: [{ id: 'b' }], next_cursor: 'LTE=', limit: 1, count: 1 },
    ),
  );
  routes.set('GET /book', (r) => ({
    json: {
      market: CONDITION,
      asset_id: r.query.get('token_id'),
      timestamp: '1700000000000',
      hash: '',
      bids: [],
      asks: [],
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: false,
      last_trade_price: '0.5',
    },
  }));
}

function newClient(options: { useServerTime?: boolean; creds?: ApiKeyCreds } = {}): ClobClient {
  return new ClobClient({
    host: server.url,
    chain: CHAIN_ID,
    signer: wallet as never,
    creds: options.creds,
    useServerTime: options.useServerTime,
    throwOnError: true,
  });
}

function lastRequest(method: string, path: string): CapturedRequest {
  const found = server.requests.filter((r) => r.method === method && r.path === path).at(-1);
  if (!found) throw new Error(`no ${method} ${path} captured`);
  return found;
}

describe('compatibility with @polymarket/clob-client-v2', () => {
  beforeAll(async () => {
    server = await startCaptureServer();
    installRoutes(server.routes);
  });
  afterAll(() => server.close());

  it('creates an API key with L1 headers we verify, and maps apiKey/secret/passphrase', async () => {
    creds = await newClient().createApiKey(0);
    const request = lastRequest('POST', '/auth/api-key');
    expect(header(request, 'POLY_ADDRESS')).toBe(account.address);
    expect(header(request, 'POLY_NONCE')).toBe('0');
    expect(header(request, 'POLY_TIMESTAMP')).toMatch(/^\d{10}$/);
    expect(header(request, 'POLY_SIGNATURE')).toMatch(/^0x[0-9a-f]{130}$/);
    expect(request.body.length).toBe(0);
    expect(creds).toEqual({ key: issued!.apiKey, secret: issued!.secret, passphrase: issued!.passphrase });
  });

  it('derives the existing key (GET) and falls back to derive when create is refused', async () => {
    expect(await newClient().deriveApiKey(0)).toEqual(creds);
    expect(
      await new ClobClient({ host: server.url, chain: CHAIN_ID, signer: wallet as never }).createOrDeriveApiKey(0),
    ).toEqual(creds);
    expect(lastRequest('POST', '/auth/api-key').body.length).toBe(0);
  });

  it('signs L1 with the server time when useServerTime is set', async () => {
    await newClient({ useServerTime: true }).deriveApiKey(7);
    const request = lastRequest('GET', '/auth/derive-api-key');
    expect(header(request, 'POLY_TIMESTAMP')).toBe(String(SERVER_TIME));
    expect(header(request, 'POLY_NONCE')).toBe('7');
    expect(l1Valid(request)).toBe(true);
  });

  it('posts a limit order whose body, HMAC, digest and signature we accept', async () => {
    const response = await newClient({ creds }).createAndPostOrder(
      { tokenID: TOKEN, price: 0.57, size: 10, side: Side.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    const request = lastRequest('POST', '/order');
    expect(l2Valid(request)).toBe(true);
    expect(header(request, 'POLY_SIGNATURE')).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(header(request, 'content-type')).toBe('application/json');
    const body = JSON.parse(request.body.toString());
    expect(request.body.toString()).toBe(JSON.stringify(body)); // compact JSON, as signed
    expect(Object.keys(body)).toEqual(ORDER_BODY_KEYS);
    expect(Object.keys(body.order)).toEqual(ORDER_KEYS); // `taker` is undefined for V2 and dropped
    expect(body).toMatchObject({ deferExec: false, postOnly: false, owner: creds.key, orderType: 'GTC' });
    expect(body.order).toMatchObject({
      maker: account.address,
      signer: account.address,
      tokenId: TOKEN,
      makerAmount: '5700000',
      takerAmount: '10000000',
      side: 'BUY',
      signatureType: 0,
      expiration: '0',
      metadata: '0x' + '0'.repeat(64),
      builder: '0x' + '0'.repeat(64),
    });
    expect(typeof body.order.salt).toBe('number');
    expect(body.order.timestamp).toMatch(/^\d{13}$/);
    expect(response.success).toBe(true);
    expect(response.orderID).toBe(viemOrderHash({ ...body.order, side: 0 }, EXCHANGE));
  });

  it('signs neg-risk orders for the neg-risk exchange, SELL as side 1, and carries GTD expiration and postOnly unsigned', async () => {
    const client = newClient({ creds });
    const response = await client.createAndPostOrder(
      { tokenID: NEG_RISK_TOKEN, price: 0.43, size: 21.5, side: Side.SELL, expiration: 1_760_000_000 },
      { tickSize: '0.01' },
      OrderType.GTD,
      true,
    );
    const body = JSON.parse(lastRequest('POST', '/order').body.toString());
    expect(body).toMatchObject({ orderType: 'GTD', postOnly: true, deferExec: false });
    expect(body.order).toMatchObject({
      side: 'SELL',
      makerAmount: '21500000',
      takerAmount: '9245000',
      expiration: '1760000000',
    });
    expect(response.success).toBe(true);
    expect(response.orderID).toBe(viemOrderHash({ ...body.order, side: 1 }, NEG_RISK_EXCHANGE));
    expect(lastRequest('GET', '/neg-risk').query.get('token_id')).toBe(NEG_RISK_TOKEN);
  });

  it('posts a market order (FOK) after reading market info by token', async () => {
    const response = await newClient({ creds }).createAndPostMarketOrder(
      { tokenID: TOKEN, amount: 100, side: Side.BUY, price: 0.5 },
      { tickSize: '0.01', negRisk: false },
      OrderType.FOK,
    );
    const body = JSON.parse(lastRequest('POST', '/order').body.toString());
    expect(body).toMatchObject({ orderType: 'FOK', postOnly: false });
    expect(body.order).toMatchObject({
      side: 'BUY',
      makerAmount: '100000000',
      takerAmount: '200000000',
      expiration: '0',
    });
    expect(response.success).toBe(true);
    expect(lastRequest('GET', `/markets-by-token/${TOKEN}`)).toBeDefined();
    expect(lastRequest('GET', `/clob-markets/${CONDITION}`)).toBeDefined();
  });

  it('posts a batch to /orders as an array of the same bodies', async () => {
    const client = newClient({ creds });
    const orders = await Promise.all(
      [0.2, 0.3].map((price) =>
        client.createOrder({ tokenID: TOKEN, price, size: 5, side: Side.BUY }, { tickSize: '0.01', negRisk: false }),
      ),
    );
    const responses = await client.postOrders(orders.map((order) => ({ order, orderType: OrderType.GTC })));
    const request = lastRequest('POST', '/orders');
    expect(l2Valid(request)).toBe(true);
    const body = JSON.parse(request.body.toString());
    expect(body).toHaveLength(2);
    expect(Object.keys(body[0])).toEqual(ORDER_BODY_KEYS);
    expect(responses.map((r) => r.success)).toEqual([true, true]);
  });

  it('signs cancels with their JSON bodies and the path only', async () => {
    const client = newClient({ creds });
    await client.cancelOrder({ orderID: '0xabc' });
    await client.cancelOrders(['0xabc', '0xdef']);
    await client.cancelAll();
    await client.cancelMarketOrders({ market: CONDITION, asset_id: TOKEN });
    expect(lastRequest('DELETE', '/order').body.toString()).toBe('{"orderID":"0xabc"}');
    expect(lastRequest('DELETE', '/orders').body.toString()).toBe('["0xabc","0xdef"]');
    expect(lastRequest('DELETE', '/cancel-all').body.length).toBe(0);
    expect(lastRequest('DELETE', '/cancel-market-orders').body.toString()).toBe(
      `{"market":"${CONDITION}","asset_id":"${TOKEN}"}`,
    );
    for (const path of ['/order', '/orders', '/cancel-all', '/cancel-market-orders'])
      expect(l2Valid(lastRequest('DELETE', path))).toBe(true);
  });

  it('pages open orders with next_cursor in the query, signing the bare path', async () => {
    const orders = await newClient({ creds }).getOpenOrders({ market: CONDITION });
    expect(orders).toEqual([{ id: 'a' }, { id: 'b' }]);
    const pages = server.requests.filter((r) => r.path === '/data/orders');
    expect(pages.map((r) => r.query.get('next_cursor'))).toEqual(['MA==', 'MQ==']);
    expect(pages[0]!.query.get('market')).toBe(CONDITION);
    expect(pages.every(l2Valid)).toBe(true);
  });

  it('reads book, tick size, neg risk, version and time from the public endpoints', async () => {
    const client = newClient();
    expect((await client.getOrderBook(TOKEN)).asset_id).toBe(TOKEN);
    expect(await client.getTickSize('999')).toBe('0.01');
    expect(await client.getNegRisk(NEG_RISK_TOKEN)).toBe(true);
    expect(await client.getVersion()).toBe(2);
    expect(await client.getServerTime()).toBe(SERVER_TIME);
    expect(lastRequest('GET', '/tick-size').query.get('token_id')).toBe('999');
  });
});

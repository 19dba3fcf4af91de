// Every order rejection and every kind of bad input, end to end: the right status, the simple
// error shape, the real service's message — and the exchange still consistent afterwards.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, sharedScenario, type Scenario } from '../src/testing/clob-harness.ts';
import { Trader, limit } from '@pmx/testkit';

const USDC = 1_000_000n;
const scenario = sharedScenario({ PMX_MAX_BODY_BYTES: '65536' });
let { h, market, alice } = {} as Scenario;
beforeAll(() => void ({ h, market, alice } = scenario));

describe('order rejections', () => {
  it('a tampered order fails its signature', async () => {
    const body = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.30', 10) });
    (body.order as Record<string, unknown>).makerAmount = '3100000';
    expectRejected(await alice.authed('POST', '/order', body), /signature does not match the signer/);
  });

  it("a neg-risk market's orders are signed for the neg-risk exchange, every other market's for the standard one", async () => {
    const negRisk = await h.createMarket({ neg_risk: true });
    expectRejected(
      await alice.placeOrder({ tokenId: negRisk.yes, ...limit('BUY', '0.30', 10) }),
      /signature does not match the signer/,
    );
    const placed = await alice.placeOrder({ tokenId: negRisk.yes, ...limit('BUY', '0.30', 10), negRisk: true });
    expect(placed.body).toMatchObject({ success: true, status: 'live' });
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.30', 10), negRisk: true }),
      /signature does not match the signer/,
    );
    await alice.authed('DELETE', '/order', { orderID: placed.body.orderID });
  });

  it('an order signed by another wallet, sent with this API key', async () => {
    const bob = new Trader(h.url);
    const body = await bob.signOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.30', 10),
      owner: alice.credentials!.apiKey,
    });
    expectRejected(
      await alice.authed('POST', '/order', body),
      'the order signer address has to be the address of the API KEY',
    );
  });

  it('an owner that is not the API key', async () => {
    const body = await alice.signOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.30', 10),
      owner: '00000000-0000-4000-8000-000000000000',
    });
    expectRejected(await alice.authed('POST', '/order', body), 'the order owner has to be the owner of the API KEY');
  });

  it('a price off the tick, at 0, or at 1 and above', async () => {
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, side: 'BUY', makerAmount: 5_050_000n, takerAmount: 10_000_000n }),
      /is invalid\. Price \(0\.505\) breaks minimum tick size rule: 0\.01$/,
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, side: 'BUY', makerAmount: 10_000_000n, takerAmount: 10_000_000n }),
      /Price \(1\) breaks minimum tick size rule/,
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, side: 'SELL', makerAmount: 10_000_000n, takerAmount: 20_000_000n }),
      /Price \(2\) breaks minimum tick size rule/,
    );
    expectRejected(
      await alice.placeOrder({
        tokenId: market.yes,
        side: 'BUY',
        makerAmount: 1n,
        takerAmount: 10_000_000n,
        orderType: 'FOK',
      }),
      /Price \(0\) breaks/,
    );
  });

  it('a size below the market minimum', async () => {
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.30', 4.99) }),
      /is invalid\. Size \(4\.99\) lower than the minimum: 5$/,
    );
  });

  it('an unknown token', async () => {
    expectRejected(
      await alice.placeOrder({ tokenId: '123456789', ...limit('BUY', '0.30', 10) }),
      'market not found for token 123456789',
    );
  });

  it('not enough balance', async () => {
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.50', 2001) }),
      'not enough balance / allowance',
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.50', 10) }),
      'not enough balance / allowance',
    );
  });

  it('an FOK that cannot be filled completely', async () => {
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.50', 10), orderType: 'FOK' }),
      "order couldn't be fully filled. FOK orders are fully filled or killed.",
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.50', 10), orderType: 'FAK' }),
      /no orders found to match with FAK order/,
    );
  });

  it('post-only that crosses, and post-only on an FOK', async () => {
    const maker = new Trader(h.url);
    await maker.createApiKey();
    await h.deposit(maker.address, 10n * USDC, market.no);
    expect((await maker.placeOrder({ tokenId: market.no, ...limit('SELL', '0.45', 10) })).body.status).toBe('live'); // a YES bid at 0.55
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.55', 10), postOnly: true }),
      /not enough balance/,
    );
    await h.deposit(alice.address, 10n * USDC, market.yes);
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.55', 10), postOnly: true }),
      'invalid post-only order: order crosses book',
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.55', 10), postOnly: true, orderType: 'FOK' }),
      'invalid post-only order: only GTC and GTD order types are allowed',
    );
    await maker.authed('DELETE', '/cancel-all');
  });

  it('an FOK the engine killed was never accepted: the same signed order fills once liquidity comes, then is a duplicate', async () => {
    const body = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.60', 10), orderType: 'FOK' });
    expectRejected(
      await alice.authed('POST', '/order', body),
      "order couldn't be fully filled. FOK orders are fully filled or killed.",
    );
    const seller = new Trader(h.url);
    await seller.createApiKey();
    await h.deposit(seller.address, 10n * USDC, market.yes);
    expect((await seller.placeOrder({ tokenId: market.yes, ...limit('SELL', '0.60', 10) })).body.status).toBe('live');
    const filled = await alice.authed('POST', '/order', body);
    expect(filled.body).toMatchObject({ success: true, status: 'matched' });
    expectRejected(await alice.authed('POST', '/order', body), `order ${filled.body.orderID} is invalid. Duplicated.`);
  });

  it('the same signed order twice is a duplicate', async () => {
    const body = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.11', 10) });
    const first = await alice.authed('POST', '/order', body);
    expect(first.body.status).toBe('live');
    expectRejected(await alice.authed('POST', '/order', body), `order ${first.body.orderID} is invalid. Duplicated.`);
    await alice.authed('DELETE', '/order', { orderID: first.body.orderID });
    expectRejected(await alice.authed('POST', '/order', body), /Duplicated/);
  });

  it('an order stamped more than 10 minutes ahead of the server clock is refused; a fast clock within that is not', async () => {
    const ahead = (ms: number) =>
      alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.11', 10), timestamp: Date.now() + ms });
    const hour = await alice.authed('POST', '/order', await ahead(3_600_000));
    expect(hour.status).toBe(400);
    expect(hour.body.error).toMatch(
      /^order 0x[0-9a-f]{64} is invalid\. Its timestamp \(\d+\) is more than 600 s ahead of the server clock$/,
    );
    const beyondSafe = await alice.signOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.11', 10),
      timestamp: 10_000_000_000_000_000,
    });
    expectRejected(
      await alice.authed('POST', '/order', beyondSafe),
      /Its timestamp \(10000000000000000\) is more than 600 s ahead/,
    );
    // Five minutes fast: past the replay window, within the tolerance; its id is still known.
    const body = await ahead(300_000);
    const fast = await alice.authed('POST', '/order', body);
    expect(fast.body.status).toBe('live');
    await alice.authed('DELETE', '/order', { orderID: fast.body.orderID });
    expectRejected(await alice.authed('POST', '/order', body), `order ${fast.body.orderID} is invalid. Duplicated.`);
  });

  it('a GTD needs a future expiration, rests until then and then leaves the book', async () => {
    expectRejected(
      await alice.placeOrder({
        tokenId: market.yes,
        ...limit('BUY', '0.12', 10),
        orderType: 'GTD',
        expiration: Math.floor(Date.now() / 1000) - 1,
      }),
      'invalid expiration',
    );
    expectRejected(
      await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.12', 10), orderType: 'GTD' }),
      'invalid expiration',
    );
    // Past the end of year 9999: no ledger timestamp holds it (accepted, it would stop a shard's ledger).
    expectRejected(
      await alice.placeOrder({
        tokenId: market.yes,
        ...limit('BUY', '0.12', 10),
        orderType: 'GTD',
        expiration: 10_000_000_000_000,
      }),
      'invalid expiration',
    );
    expectRejected(
      await alice.placeOrder({
        tokenId: market.yes,
        ...limit('BUY', '0.12', 10),
        orderType: 'GTD',
        expiration: 253_402_300_800,
      }),
      'invalid expiration',
    );
    // A time on any other type is refused, not dropped: the order would rest for ever.
    const later = Math.floor(Date.now() / 1000) + 3600;
    for (const orderType of ['GTC', 'FOK', 'FAK'] as const) {
      expectRejected(
        await alice.placeOrder({ tokenId: market.yes, ...limit('BUY', '0.12', 10), orderType, expiration: later }),
        'invalid expiration: only GTD orders expire (send "0" for GTC, FOK and FAK)',
      );
    }
    const lastSecond = await alice.placeOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.12', 10),
      orderType: 'GTD',
      expiration: 253_402_300_799,
    });
    expect(lastSecond.body.status).toBe('live');
    expect((await alice.authed('GET', `/data/order/${lastSecond.body.orderID}`)).body).toMatchObject({
      expiration: '253402300799',
    });
    expect((await alice.authed('DELETE', '/order', { orderID: lastSecond.body.orderID })).body.canceled).toEqual([
      lastSecond.body.orderID,
    ]);
    const gtd = await alice.placeOrder({
      tokenId: market.yes,
      ...limit('BUY', '0.12', 10),
      orderType: 'GTD',
      expiration: Math.floor(Date.now() / 1000) + 2,
    });
    expect(gtd.body.status).toBe('live');
    expect((await alice.authed('GET', `/data/order/${gtd.body.orderID}`)).body).toMatchObject({ order_type: 'GTD' });
    await expect
      .poll(async () => (await alice.authed('GET', `/data/order/${gtd.body.orderID}`)).body.status, {
        timeout: 6000,
        interval: 250,
      })
      .toBe('CANCELED');
    expect((await alice.authed('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).not.toContain(
      gtd.body.orderID,
    );
  });

  it('a market paused, closed or not open yet refuses new orders with a 400 naming why, while open orders can still be cancelled', async () => {
    const m = await h.createMarket();
    const resting = (await alice.placeOrder({ tokenId: m.yes, ...limit('BUY', '0.20', 10) })).body.orderID as string;
    const place = () => alice.placeOrder({ tokenId: m.yes, ...limit('BUY', '0.30', 10) });
    expect((await h.operator('POST', `/operator/markets/${m.conditionId}/pause`)).status).toBe(200);
    expectRejected(await place(), /^market is paused: it takes no new orders until it resumes/);
    expect((await alice.authed('DELETE', '/order', { orderID: resting })).body).toEqual({
      canceled: [resting],
      not_canceled: {},
    });
    expect((await h.operator('POST', `/operator/markets/${m.conditionId}/close`)).status).toBe(200);
    expectRejected(await place(), 'market is closed: it takes no more orders');
    // A market not active (listed but not open for trading yet) is the real service's refusal.
    const later = await h.createMarket();
    const record = h.app.core.markets.get(later.conditionId)!;
    try {
      Object.assign(record, { active: false });
      expectRejected(
        await alice.placeOrder({ tokenId: later.yes, ...limit('BUY', '0.30', 10) }),
        'the market is not yet ready to process new orders',
      );
    } finally {
      Object.assign(record, { active: true });
    }
  });

  it('a batch answers each order and refuses more than 15', async () => {
    const good = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.14', 10) });
    const bad = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.145', 10) });
    const batch = await alice.authed('POST', '/orders', [good, bad]);
    expect(batch.status).toBe(200);
    expect(batch.body[0]).toMatchObject({ success: true, status: 'live' });
    expect(batch.body[1]).toMatchObject({
      success: false,
      errorMsg: expect.stringMatching(/breaks minimum tick size rule/),
    });
    const other = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.14', 10) });
    const mixed = await alice.authed('POST', '/orders', [other, { ...other, orderType: 'toString' }]);
    expect(mixed.status).toBe(200);
    expect(mixed.body[0]).toMatchObject({ success: true, status: 'live' });
    expect(mixed.body[1]).toMatchObject({
      success: false,
      errorMsg: 'Invalid order payload: orderType must be GTC, GTD, FOK or FAK',
    });
    expectRejected(
      await alice.authed(
        'POST',
        '/orders',
        Array.from({ length: 16 }, () => good),
      ),
      'Too many orders in payload: 16, max allowed: 15',
    );
  });
});

describe('hostile input', () => {
  const malformed = '{"order": {"salt": 1,';

  it('POST /order: malformed JSON, wrong types, missing and unknown fields, oversized body', async () => {
    expectRejected(await alice.authed('POST', '/order', malformed), /JSON/i);
    expectRejected(await alice.authed('POST', '/order', '[]'), /Invalid order payload/);
    const signed = await alice.signOrder({ tokenId: market.yes, ...limit('BUY', '0.30', 10) });
    const order = signed.order as Record<string, unknown>;
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, makerAmount: 3.5 } }),
      /Invalid order payload: makerAmount/,
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, side: 'HOLD' } }),
      /Invalid order payload: side/,
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, side: 0 } }),
      'Invalid order payload: side must be BUY or SELL',
    );
    // Version-1 fields, known but unsigned: still checked for their type.
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, taker: { x: [1] } } }),
      'Invalid order payload: taker is missing or malformed',
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, nonce: null } }),
      'Invalid order payload: nonce is missing or malformed',
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, feeRateBps: 'abc' } }),
      'Invalid order payload: feeRateBps is missing or malformed',
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, conditionId: market.no } }),
      'Invalid order payload: conditionId does not match tokenId',
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, signature: 42 } }),
      /Invalid order payload: signature/,
    );
    expectRejected(await alice.authed('POST', '/order', { ...signed, orderType: 'IOC' }), /orderType/);
    // Names every JS object has: taken as types, one would fail its whole shard batch.
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expectRejected(
        await alice.authed('POST', '/order', { ...signed, orderType: name }),
        'Invalid order payload: orderType must be GTC, GTD, FOK or FAK',
      );
    }
    expectRejected(await alice.authed('POST', '/order', { ...signed, postOnly: 'yes' }), /postOnly/);
    const { tokenId: _, ...withoutToken } = order;
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: withoutToken }),
      /Invalid order payload: tokenId/,
    );
    const { order: __, ...withoutOrder } = signed;
    expectRejected(await alice.authed('POST', '/order', withoutOrder), /Invalid order payload: order/);
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, extra: 1 }),
      'Invalid order payload: unknown field extra',
    );
    expectRejected(
      await alice.authed('POST', '/order', { ...signed, order: { ...order, bogus: 1 } }),
      'Invalid order payload: unknown field order.bogus',
    );
    const huge = await alice.authed('POST', '/order', { ...signed, padding: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(Object.keys(huge.body)).toEqual(['error']);
  });

  it('cancel endpoints', async () => {
    expectRejected(await alice.authed('DELETE', '/order', malformed), /JSON/i);
    expectRejected(await alice.authed('DELETE', '/order', {}), 'orderID is required');
    expectRejected(await alice.authed('DELETE', '/order', { orderID: 5 }), 'orderID is required');
    expectRejected(await alice.authed('DELETE', '/order', { orderID: '0x1', more: true }), 'unknown field more');
    expectRejected(await alice.authed('DELETE', '/orders', { orderID: '0x1' }), /array of order ids/);
    expectRejected(await alice.authed('DELETE', '/cancel-market-orders', { market: 5 }), /must be strings/);
    expectRejected(
      await alice.authed(
        'DELETE',
        '/orders',
        Array.from({ length: 3001 }, (_, i) => `0x${i}`),
      ),
      'Too many orders in payload: 3001, max allowed: 3000',
    );
    expectRejected(await alice.authed('POST', '/orders', { not: 'an array' }), /must be an array/);
  });

  it('ledger and history reads', async () => {
    // A NUL is refused before Postgres, whose text would refuse it with a 500, on the public
    // /builder/trades too.
    for (const query of ['market=%00', 'id=a%00b', 'maker_address=%01', 'asset_id=%7F'])
      expectRejected(await alice.authed('GET', `/data/trades?${query}`), /must not contain control characters/);
    const builder = `0x${'ab'.repeat(32)}`;
    expectRejected(
      await alice.send('GET', `/builder/trades?builder=${builder}&id=%00`),
      'id must not contain control characters',
    );
    expect(await alice.send('GET', `/builder/trades?builder=${builder}`)).toMatchObject({ status: 200, body: [] });
    // A fidelity past 32 bits of seconds must not reach ClickHouse; checked before history is needed.
    const history = (body: unknown) => alice.send('POST', '/batch-prices-history', { body: JSON.stringify(body) });
    expectRejected(
      await history({ markets: [market.yes], fidelity: 9007199254740991 }),
      'fidelity must be a non-negative integer of at most 12 digits',
    );
    expectRejected(
      await history({ markets: [market.yes], fidelity: 71582789 }),
      'fidelity must be from 1 to 5256000 minutes',
    );
    expectRejected(await history({ markets: [market.yes], fidelity: 0 }), 'fidelity must be from 1 to 5256000 minutes');
    expectRejected(await history({ markets: [market.yes], startTs: 1e13 }), /unknown field startTs/);
    expectRejected(
      await history({ markets: [market.yes], start_ts: 1e13 }),
      'startTs must be a non-negative integer of at most 12 digits',
    );
    expectRejected(
      await alice.send('GET', `/prices-history?market=${market.yes}&fidelity=99999999`),
      'fidelity must be from 1 to 5256000 minutes',
    );
    // A condition id only ever found an empty history: price history is per token.
    const byCondition = `${market.conditionId} is a condition id: price history is per outcome token, so send the market's token ids (clobTokenIds)`;
    expectRejected(await alice.send('GET', `/prices-history?market=${market.conditionId}`), byCondition);
    expectRejected(await history({ markets: [market.yes, market.conditionId] }), byCondition);
    expectRejected(await history({ markets: Array(21).fill(market.yes) }), 'too many markets: 21, max allowed: 20');
    for (const limit of ['-1', '1.5', '1e3', '9'.repeat(101)])
      expectRejected(
        await alice.send('GET', `/trades?market=${market.conditionId}&limit=${limit}`),
        /^limit must be a whole number/,
      );
    expect((await history({ markets: [market.yes], fidelity: 60 })).status).toBe(503); // this server serves no history
  });

  it('market data endpoints', async () => {
    const get = (path: string) => alice.send('GET', path);
    const post = (path: string, body: string) => alice.send('POST', path, { body });
    expectRejected(await get('/book'), 'token_id is required');
    expect(await get('/book?token_id=999')).toMatchObject({
      status: 404,
      body: { error: 'No orderbook exists for the requested token id' },
    });
    expectRejected(await get(`/price?token_id=${market.yes}&side=UP`), 'side must be BUY or SELL');
    expectRejected(await post('/books', malformed), /JSON/i);
    expectRejected(await post('/books', '{"token_id": "1"}'), /array/);
    expectRejected(await post('/prices', '[5]'), /token_id/);
    for (const path of ['/midpoints', '/spreads', '/last-trades-prices']) {
      expectRejected(await post(path, malformed), /JSON/i);
      expectRejected(await post(path, '{"token_id": "1"}'), /array/);
      expectRejected(await post(path, '[{"token_id": 5}]'), 'token_id must be a string');
      expectRejected(await post(path, '[{}]'), 'token_id is required');
      expect(await post(path, '[{"token_id": "999"}]')).toMatchObject({
        status: 404,
        body: { error: 'No orderbook exists for the requested token id' },
      });
    }
    expectRejected(
      await post('/books', JSON.stringify(Array.from({ length: 501 }, () => ({ token_id: market.yes })))),
      'too many tokens: 501, max allowed: 500',
    );
    expectRejected(await get('/markets/not-hex'), /condition_id/);
    expect((await get(`/markets/0x${'0'.repeat(64)}`)).status).toBe(404);
    expectRejected(await get('/markets?next_cursor=%%%'), 'invalid next_cursor');
    expect((await get('/no-such-endpoint')).status).toBe(404);
  });

  it('operator endpoints', async () => {
    const bad = async (path: string, body: unknown, message: RegExp | string) => {
      const response = await h.operator('POST', path, body);
      expect(response.status).toBe(400);
      if (typeof message === 'string') expect(response.body.error).toBe(message);
      else expect(response.body.error).toMatch(message);
    };
    await bad('/operator/markets', { condition_id: 'x' }, /unknown field|condition_id|tokens/);
    await bad(
      '/operator/markets',
      {
        condition_id: `0x${'1'.repeat(64)}`,
        question: 'q',
        tokens: [{ token_id: '1', outcome: 'Y' }],
        tick_size: '0.01',
      },
      /tokens/,
    );
    await bad(
      '/operator/markets',
      {
        condition_id: `0x${'1'.repeat(64)}`,
        question: 'q',
        tokens: [
          { token_id: '1', outcome: 'Y' },
          { token_id: '2', outcome: 'N' },
        ],
        tick_size: '0.02',
      },
      /tick_size/,
    );
    let n = 0;
    const newMarket = (fields: Record<string, unknown>) => {
      const id = `9${randomBytes(8).readBigUInt64BE()}${++n}`;
      return {
        condition_id: `0x${randomBytes(32).toString('hex')}`,
        question: 'q',
        tokens: [
          { token_id: `${id}1`, outcome: 'Y' },
          { token_id: `${id}2`, outcome: 'N' },
        ],
        ...fields,
      };
    };
    // Each of these is refused with 400 before Postgres, which would answer 500 or store something
    // else than what was sent.
    for (const min of ['10000000000000', [7], '1000000000.01'])
      await bad('/operator/markets', newMarket({ min_order_size: min }), /^min_order_size must be/);
    await bad(
      '/operator/markets',
      newMarket({ question: 'a\u0000b' }),
      'the JSON body must not contain NUL characters (\\u0000)',
    );
    await bad(
      '/operator/markets',
      newMarket({ tags: ['a', 'b\u0000'] }),
      'the JSON body must not contain NUL characters (\\u0000)',
    );
    for (const date of [
      '1',
      '-1',
      'March 7',
      '2024-02-30',
      '99999-01-01',
      '+275760-09-13T00:00:00.000Z',
      '10000',
      '0000-06-01',
      '0050-06-01',
      '0999-12-31',
      '9999-12-31T23:00-05:00',
    ]) {
      await bad('/operator/markets', newMarket({ end_date_iso: date }), /^end_date_iso must be an ISO 8601 date/);
    }
    await bad(
      '/operator/markets',
      newMarket({
        tokens: [
          { token_id: '0123', outcome: 'Y' },
          { token_id: '5', outcome: 'N' },
        ],
      }),
      'token_id is missing or malformed',
    );
    await bad(
      '/operator/markets',
      newMarket({
        tokens: [
          { token_id: '7', outcome: 'Y', extra: 1 },
          { token_id: '8', outcome: 'N' },
        ],
      }),
      'unknown field extra',
    );
    // 78 digits can pass 2^256 - 1: no order could ever be signed for such a market, so it is refused.
    const maxUint = ((1n << 256n) - 1n).toString();
    const pastMax = (1n << 256n).toString();
    await bad(
      '/operator/markets',
      newMarket({
        tokens: [
          { token_id: pastMax, outcome: 'Y' },
          { token_id: '8', outcome: 'N' },
        ],
      }),
      'token_id must be a decimal uint256 (at most 2^256 - 1)',
    );
    await bad(
      '/operator/markets',
      newMarket({
        tokens: [
          { token_id: '9'.repeat(78), outcome: 'Y' },
          { token_id: '8', outcome: 'N' },
        ],
      }),
      /^token_id must be a decimal uint256/,
    );
    await bad(
      '/operator/deposit',
      { address: alice.address, amount: '5', asset: pastMax },
      'asset must be "collateral" or a token id',
    );
    expect(
      (
        await h.operator(
          'POST',
          '/operator/markets',
          newMarket({
            tokens: [
              { token_id: maxUint, outcome: 'Y' },
              { token_id: `7${randomBytes(6).readUIntBE(0, 6)}`, outcome: 'N' },
            ],
          }),
        )
      ).status,
    ).toBe(201);
    for (const date of ['2024-02-29', '2026-12-31T12:00:00Z', '2026-12-31T12:00:00.123+02:00']) {
      expect((await h.operator('POST', '/operator/markets', newMarket({ end_date_iso: date }))).status).toBe(201);
    }
    // A retry of a create that went through (after a timeout) is answered as done; a create that
    // differs in any field it gives is still refused.
    const retried = newMarket({ end_date_iso: '2026-12-31T12:00:00Z', tags: ['a', 'b'], description: 'd' });
    const first = await h.operator('POST', '/operator/markets', retried);
    expect(first.status).toBe(201);
    expect(await h.operator('POST', '/operator/markets', retried)).toMatchObject({ status: 200, body: first.body });
    await bad(
      '/operator/markets',
      { ...retried, question: 'another' },
      'a market with this condition id or token id exists',
    );
    await bad('/operator/markets', { ...retried, tags: ['a'] }, 'a market with this condition id or token id exists');
    await bad(
      '/operator/markets',
      { ...retried, end_date_iso: '2027-01-01' },
      'a market with this condition id or token id exists',
    );
    // Two creations at once sharing a token, in different columns: both pass the in-memory check,
    // so Postgres lets one in (else orders on the token would go to whichever market loaded last).
    const shared = `8${randomBytes(8).readBigUInt64BE()}`;
    const racing = [newMarket({}), newMarket({})];
    racing[0]!.tokens[1]!.token_id = shared;
    racing[1]!.tokens[0]!.token_id = shared;
    const created = await Promise.all(racing.map((m) => h.operator('POST', '/operator/markets', m)));
    expect(created.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(created.find((r) => r.status === 400)!.body.error).toBe(
      'a market with this condition id or token id exists',
    );
    expect(await h.sql`SELECT condition_id FROM markets WHERE ${shared} IN (token0, token1)`).toHaveLength(1);
    // Two deposits that each fit under 2^53 but not together: one is refused before it is written
    // (written, the second would fail to credit: a 500 for a committed deposit).
    const whale = `0x${randomBytes(20).toString('hex')}`;
    const big = { address: whale, asset: market.no, amount: String(2 ** 52 + 1) };
    const statuses = (
      await Promise.all([h.operator('POST', '/operator/deposit', big), h.operator('POST', '/operator/deposit', big)])
    ).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 400]);
    expect((await h.operator('GET', `/operator/balances?address=${whale}`)).body.balances[market.no].total).toBe(
      2 ** 52 + 1,
    );
    // The same to two addresses: the asset's total supply is bounded too.
    const fresh = newMarket({});
    expect((await h.operator('POST', '/operator/markets', fresh)).status).toBe(201);
    const token = fresh.tokens[0]!.token_id;
    const whales = [0, 1].map(() => `0x${randomBytes(20).toString('hex')}`);
    const both = await Promise.all(
      whales.map((address) =>
        h.operator('POST', '/operator/deposit', { address, asset: token, amount: String(2 ** 52 + 1) }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await h.sql`SELECT address FROM operator_transfers WHERE asset = ${token}`).toHaveLength(1);
    // Collateral beside a token supply of 2^52 + 1: a mint could take a holder of that token past 2^53.
    const collateral = await h.operator('POST', '/operator/deposit', { address: whales[0], amount: String(2 ** 52) });
    expect(collateral).toMatchObject({
      status: 400,
      body: {
        error: expect.stringMatching(
          /^the deposit would take a total of collateral past 9007199254740991 base units \(trades mint tokens from collateral and merge pairs into it/,
        ),
      },
    });
    await bad('/operator/deposit', { address: alice.address, amount: 5 }, /amount/);
    await bad('/operator/deposit', { address: 'nope', amount: '5' }, /address/);
    await bad('/operator/deposit', { address: alice.address, amount: '5', asset: '424242' }, /unknown token/);
    await bad(
      '/operator/withdraw',
      { address: alice.address, amount: String(10n ** 15n) },
      /not enough available balance/,
    );
    // A refused withdrawal from an address holding nothing leaves no empty entry behind.
    const nobody = `0x${randomBytes(20).toString('hex')}`;
    await bad('/operator/withdraw', { address: nobody, amount: '5' }, /not enough available balance/);
    expect((await h.operator('GET', `/operator/balances?address=${nobody}`)).body).toMatchObject({ balances: {} });
    await bad(
      '/operator/proxy-wallets',
      { proxy: alice.address, signer: alice.address, signature_type: 3 },
      /signature_type/,
    );
  });
});

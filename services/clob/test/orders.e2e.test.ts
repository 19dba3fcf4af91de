// Trading end to end on a real server, real Postgres and Redis, real signatures: place, match
// (transfer, mint, merge), cancel, list — with balances and books checked to the base unit.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startClob, type Harness } from '../src/testing/clob-harness.ts';
import { ShardSet } from '../src/shards/shard-set.ts';
import { Piscina } from 'piscina';
import { Trader, limit } from '@pmx/testkit';

const USDC = 1_000_000n;
let h: Harness;

beforeAll(async () => {
  h = await startClob();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  h.expectConsistent();
});

async function funded(collateral: bigint): Promise<Trader> {
  const trader = new Trader(h.url);
  await trader.createApiKey();
  if (collateral > 0n) await h.deposit(trader.address, collateral);
  return trader;
}

async function balance(
  trader: Trader,
  asset = 'COLLATERAL',
  tokenId?: string,
): Promise<{ balance: string; allowance: string }> {
  const query = asset === 'COLLATERAL' ? '?asset_type=COLLATERAL' : `?asset_type=CONDITIONAL&token_id=${tokenId}`;
  const response = await trader.authed('GET', `/balance-allowance${query}`);
  expect(response.status).toBe(200);
  const { allowances, ...rest } = response.body;
  expect(Object.values(allowances)).toEqual([rest.allowance, rest.allowance]);
  return rest;
}

describe('placing and matching', () => {
  it('rests a BUY, shows it on both tokens’ books, and reserves its collateral', async () => {
    const { yes, no, conditionId } = await h.createMarket();
    const alice = await funded(100n * USDC);
    const placed = await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 50) });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({
      success: true,
      errorMsg: '',
      status: 'live',
      makingAmount: '0',
      takingAmount: '0',
      tradeIDs: [],
      transactionsHashes: [],
    });
    expect(placed.body.orderID).toMatch(/^0x[0-9a-f]{64}$/);

    const yesBook = await alice.send('GET', `/book?token_id=${yes}`);
    expect(yesBook.body).toMatchObject({
      market: conditionId,
      asset_id: yes,
      bids: [{ price: '0.4', size: '50' }],
      asks: [],
      tick_size: '0.01',
      min_order_size: '5',
      neg_risk: false,
    });
    const noBook = await alice.send('GET', `/book?token_id=${no}`);
    expect(noBook.body).toMatchObject({ bids: [], asks: [{ price: '0.6', size: '50' }] });
    expect(await balance(alice)).toEqual({ balance: String(100n * USDC), allowance: String(80n * USDC) });
  });

  it('crosses a resting SELL at the resting price and settles both sides to the base unit', async () => {
    const { yes } = await h.createMarket();
    const seller = await funded(0n);
    await h.deposit(seller.address, 20n * USDC, yes);
    const buyer = await funded(100n * USDC);
    const ask = await seller.placeOrder({ tokenId: yes, ...limit('SELL', '0.55', 20) });
    expect(ask.body.status).toBe('live');
    const bid = await buyer.placeOrder({ tokenId: yes, ...limit('BUY', '0.60', 15) });
    expect(bid.body).toMatchObject({ status: 'matched', makingAmount: '8.25', takingAmount: '15' });
    expect(bid.body.tradeIDs).toHaveLength(1);
    expect(bid.body.transactionsHashes).toEqual([expect.stringMatching(/^0x[0-9a-f]{64}$/)]);
    expect(await balance(buyer)).toEqual({
      balance: String(100n * USDC - 8_250_000n),
      allowance: String(100n * USDC - 8_250_000n),
    });
    expect(await balance(buyer, 'CONDITIONAL', yes)).toEqual({ balance: '15000000', allowance: '15000000' });
    expect(await balance(seller)).toEqual({ balance: '8250000', allowance: '8250000' });
    expect(await balance(seller, 'CONDITIONAL', yes)).toEqual({ balance: String(5n * USDC), allowance: '0' }); // 5 left, all on the book
    const price = await buyer.send('GET', `/last-trade-price?token_id=${yes}`);
    expect(price.body).toEqual({ price: '0.55' });
  });

  it('mints a pair when BUYs of both outcomes cross, and merges it back when SELLs do', async () => {
    const { yes, no, conditionId } = await h.createMarket();
    const a = await funded(50n * USDC);
    const b = await funded(50n * USDC);
    await a.placeOrder({ tokenId: yes, ...limit('BUY', '0.62', 10) });
    const mint = await b.placeOrder({ tokenId: no, ...limit('BUY', '0.40', 10) });
    expect(mint.body).toMatchObject({ status: 'matched', makingAmount: '3.8', takingAmount: '10' });
    expect(h.app.core.risk.lockedCollateral(conditionId)).toBe(10_000_000);
    await a.placeOrder({ tokenId: yes, ...limit('SELL', '0.30', 10) });
    const merge = await b.placeOrder({ tokenId: no, ...limit('SELL', '0.65', 10), orderType: 'FAK' });
    expect(merge.body).toMatchObject({ status: 'matched', makingAmount: '10', takingAmount: '7' });
    expect(h.app.core.risk.lockedCollateral(conditionId)).toBe(0);
    expect(await balance(a)).toMatchObject({ balance: String(50n * USDC - 6_200_000n + 3_000_000n) });
    expect(await balance(b)).toMatchObject({ balance: String(50n * USDC - 3_800_000n + 7_000_000n) });
  });

  it('FAK fills what it can and reports the remainder unmatched', async () => {
    const { yes } = await h.createMarket();
    const seller = await funded(0n);
    await h.deposit(seller.address, 6n * USDC, yes);
    await seller.placeOrder({ tokenId: yes, ...limit('SELL', '0.50', 6) });
    const buyer = await funded(10n * USDC);
    const fak = await buyer.placeOrder({ tokenId: yes, ...limit('BUY', '0.50', 10), orderType: 'FAK' });
    expect(fak.body).toMatchObject({ status: 'unmatched', takingAmount: '6', makingAmount: '3' });
    expect(await balance(buyer)).toMatchObject({ balance: String(7n * USDC), allowance: String(7n * USDC) });
  });
});

describe('cancelling and listing', () => {
  it('lists open orders with cursors, reads one, cancels one, then all, releasing reservations', async () => {
    const { yes, conditionId } = await h.createMarket();
    const mm = await funded(1000n * USDC);
    const ids: string[] = [];
    for (const price of ['0.10', '0.11', '0.12'])
      ids.push((await mm.placeOrder({ tokenId: yes, ...limit('BUY', price, 100) })).body.orderID);
    const listed = await mm.authed('GET', '/data/orders');
    expect(listed.body).toMatchObject({ next_cursor: 'LTE=', limit: 500, count: 3 });
    expect(listed.body.data[0]).toMatchObject({
      id: ids[0],
      status: 'LIVE',
      market: conditionId,
      asset_id: yes,
      side: 'BUY',
      original_size: '100',
      size_matched: '0',
      price: '0.1',
      outcome: 'Yes',
      order_type: 'GTC',
    });
    const one = await mm.authed('GET', `/data/order/${ids[1]}`);
    expect(one.body).toMatchObject({ id: ids[1], price: '0.11' });

    const cancelled = await mm.authed('DELETE', '/order', { orderID: ids[0] });
    expect(cancelled.body).toEqual({ canceled: [ids[0]], not_canceled: {} });
    const again = await mm.authed('DELETE', '/order', { orderId: ids[0] });
    expect(again.body.canceled).toEqual([]);
    expect(Object.keys(again.body.not_canceled)).toEqual([ids[0]]);
    expect(await balance(mm)).toEqual({ balance: String(1000n * USDC), allowance: String(1000n * USDC - 23n * USDC) });

    const all = await mm.authed('DELETE', '/cancel-all');
    expect(all.body.canceled.sort()).toEqual([ids[1], ids[2]].sort());
    expect(await balance(mm)).toEqual({ balance: String(1000n * USDC), allowance: String(1000n * USDC) });
    expect((await mm.send('GET', `/book?token_id=${yes}`)).body.bids).toEqual([]);
  });

  it('takes the condition id in any case and well-formed version-1 fields (taker, nonce, feeRateBps)', async () => {
    const { yes, conditionId } = await h.createMarket();
    const mm = await funded(10n * USDC);
    const signed = await mm.signOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) });
    const order = {
      ...(signed.order as Record<string, unknown>),
      conditionId: `0x${conditionId.slice(2).toUpperCase()}`,
      taker: `0x${'0'.repeat(40)}`,
      nonce: '0',
      feeRateBps: 0,
    };
    expect((await mm.authed('POST', '/order', { ...signed, order })).body).toMatchObject({
      success: true,
      status: 'live',
    });
  });

  it('filters and cancels by market (condition id in any case) or by token', async () => {
    const a = await h.createMarket();
    const b = await h.createMarket();
    const mm = await funded(100n * USDC);
    const place = async (tokenId: string, price: string) =>
      (await mm.placeOrder({ tokenId, ...limit('BUY', price, 10) })).body.orderID as string;
    const [aYes, aNo, bYes] = [await place(a.yes, '0.20'), await place(a.no, '0.30'), await place(b.yes, '0.40')];
    const shouted = `0x${a.conditionId.slice(2).toUpperCase()}`;
    const listed = async (query: string) =>
      (await mm.authed('GET', `/data/orders?${query}`)).body.data.map((o: { id: string }) => o.id);
    expect(await listed(`market=${shouted}`)).toEqual([aYes, aNo]);
    expect(await listed(`asset_id=${a.no}`)).toEqual([aNo]);

    expect((await mm.authed('DELETE', '/cancel-market-orders', { asset_id: a.no })).body).toEqual({
      canceled: [aNo],
      not_canceled: {},
    });
    expect((await mm.authed('DELETE', '/cancel-market-orders', { market: shouted })).body).toEqual({
      canceled: [aYes],
      not_canceled: {},
    });
    expect(await listed('')).toEqual([bYes]);
    expect(await balance(mm)).toEqual({ balance: String(100n * USDC), allowance: String(96n * USDC) });
    // Neither filter (the official client's cancelMarketOrders({})): everything the key has open.
    const bNo = await place(b.no, '0.10');
    const all = (await mm.authed('DELETE', '/cancel-market-orders', {})).body;
    expect({ ...all, canceled: all.canceled.sort() }).toEqual({ canceled: [bYes, bNo].sort(), not_canceled: {} });
    expect(await listed('')).toEqual([]);
  });

  it('cancels an id listed twice once, and reports every id it cannot cancel, "__proto__" too', async () => {
    const { yes } = await h.createMarket();
    const mm = await funded(10n * USDC);
    const id = (await mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) })).body.orderID as string;
    const response = await mm.authed('DELETE', '/orders', [id, id, '__proto__']);
    expect(response.status).toBe(200);
    expect(response.body.canceled).toEqual([id]);
    expect(Object.keys(response.body.not_canceled)).toEqual(['__proto__']);
    expect((await mm.authed('DELETE', '/order', { orderID: '__proto__' })).body).toEqual({
      canceled: [],
      not_canceled: { ['__proto__']: "the order can't be found - already canceled or matched" },
    });
  });

  it('takes an order id in any case, as it takes condition ids', async () => {
    const { yes } = await h.createMarket();
    const mm = await funded(10n * USDC);
    const id = (await mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) })).body.orderID as string;
    const upper = `0x${id.slice(2).toUpperCase()}`;
    // A bot that upper-cases hex finds its live order too (not "can't be found" while it stays).
    expect((await mm.authed('GET', `/data/order/${upper}`)).body).toMatchObject({ id, status: 'LIVE' });
    expect((await mm.authed('GET', `/data/orders?id=${upper}`)).body.data.map((o: { id: string }) => o.id)).toEqual([
      id,
    ]);
    expect((await mm.authed('DELETE', '/orders', [upper, id])).body).toEqual({ canceled: [id], not_canceled: {} });
    expect(h.app.core.openOrders.get(id)).toBeUndefined();
    expect((await mm.authed('DELETE', '/order', { orderID: upper })).body).toEqual({
      canceled: [],
      not_canceled: { [id]: "the order can't be found - already canceled or matched" },
    });
    // A decoded NUL reached Postgres: 503 "retry shortly" for ever. Now a path with a control
    // character is a bad request, and an id of no order's form is not found without a lookup.
    const nul = await mm.authed('GET', '/data/order/abc%00');
    expect([nul.status, nul.body]).toEqual([400, { error: 'invalid path parameter: id (control characters)' }]);
    expect((await mm.authed('GET', '/data/order/abc')).status).toBe(404);
  });

  it("answers every id of a cancel even when one id's cancel fails", async () => {
    const { yes } = await h.createMarket();
    const mm = await funded(10n * USDC);
    const [first, second] = await Promise.all(
      [0.2, 0.3].map(
        async (p) => (await mm.placeOrder({ tokenId: yes, ...limit('BUY', String(p), 10) })).body.orderID as string,
      ),
    );
    const submit = ShardSet.prototype.submit;
    const spy = vi.spyOn(ShardSet.prototype, 'submit').mockImplementation(function (this: ShardSet, shard, command) {
      if (command.type === 'cancel' && command.orderId === second)
        return Promise.reject(new Error('queue unreachable'));
      return submit.call(this, shard, command);
    });
    try {
      const response = await mm.authed('DELETE', '/orders', [first!, second!]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        canceled: [first],
        not_canceled: { [second!]: 'internal server error: the cancel did not complete; retry' },
      });
    } finally {
      spy.mockRestore();
    }
    expect((await mm.authed('DELETE', '/order', { orderID: second })).body).toEqual({
      canceled: [second],
      not_canceled: {},
    });
  });

  it('cancel-all also cancels an order still on its way through its shard', async () => {
    const { yes } = await h.createMarket();
    const mm = await funded(10n * USDC);
    // Hold the reply of the shard batch that places the order, as a slow queue append would: the
    // shard has matched it, the front end still knows it only as reserved and on its way.
    const run = Piscina.prototype.run;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const spy = vi.spyOn(Piscina.prototype, 'run').mockImplementation(function (
      this: Piscina,
      task: { commands?: { type: string }[] },
      ...rest
    ) {
      const reply = run.call(this, task, ...rest);
      if (!task.commands?.some((command) => command.type === 'place')) return reply;
      holding++;
      return reply.then(async (value: unknown) => (await held, value));
    });
    const submit = ShardSet.prototype.submit;
    let cancelsSent = 0;
    const submits = vi.spyOn(ShardSet.prototype, 'submit').mockImplementation(function (
      this: ShardSet,
      shard,
      command,
    ) {
      if (command.type === 'cancel') cancelsSent++;
      return submit.call(this, shard, command);
    });
    try {
      const placing = mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) });
      await expect.poll(() => holding).toBe(1);
      expect(h.app.core.openOrders.intentsOf(mm.credentials!.apiKey)).toHaveLength(1);
      const cancelling = mm.authed('DELETE', '/cancel-all');
      await expect.poll(() => cancelsSent).toBe(1);
      release();
      const [placed, cancelled] = await Promise.all([placing, cancelling]);
      expect(placed.body).toMatchObject({ success: true, status: 'live' });
      expect(cancelled.body).toEqual({ canceled: [placed.body.orderID], not_canceled: {} });
    } finally {
      release();
      spy.mockRestore();
      submits.mockRestore();
    }
    expect((await mm.authed('GET', '/data/orders')).body.data).toEqual([]);
    expect(await balance(mm)).toEqual({ balance: String(10n * USDC), allowance: String(10n * USDC) });
  });

  it("cannot cancel another key's order", async () => {
    const { yes } = await h.createMarket();
    const alice = await funded(10n * USDC);
    const mallory = await funded(0n);
    const id = (await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) })).body.orderID;
    const attempt = await mallory.authed('DELETE', '/order', { orderID: id });
    expect(attempt.body.canceled).toEqual([]);
    expect((await alice.authed('GET', `/data/order/${id}`)).status).toBe(200);
    expect((await mallory.authed('GET', `/data/order/${id}`)).status).toBe(404);
  });
});

describe('order latency for operators', () => {
  it('counts the placed orders since the last reset, for the operator only', async () => {
    const { yes } = await h.createMarket();
    const alice = await funded(10n * USDC);
    expect((await h.operator('DELETE', '/operator/order-latency')).status).toBe(200);
    expect((await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) })).status).toBe(200);
    const report = await h.operator('GET', '/operator/order-latency');
    expect(report.status).toBe(200);
    const { signatureCheck, match, total } = report.body;
    expect([signatureCheck.count, match.count, total.count]).toEqual([1, 1, 1]);
    expect(signatureCheck.maxMs).toBeGreaterThan(0);
    expect(total.maxMs).toBeGreaterThanOrEqual(signatureCheck.maxMs + match.maxMs - 0.002);
    expect((await h.operator('DELETE', '/operator/order-latency')).body.match.count).toBe(1);
    expect((await h.operator('GET', '/operator/order-latency')).body.match.count).toBe(0);
    expect(
      (await fetch(`${h.url}/operator/order-latency`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
  });
});

describe('operator transfers with an idempotency key', () => {
  it('applies a transfer once however often it is retried, at once or later; the key names one transfer', async () => {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const deposit = (amount: string, key: string) =>
      h.operator('POST', '/operator/deposit', { address, amount, idempotency_key: key });
    const withdraw = (amount: string, key: string) =>
      h.operator('POST', '/operator/withdraw', { address, amount, idempotency_key: key });
    const total = async () =>
      (await h.operator('GET', `/operator/balances?address=${address}`)).body.balances.collateral?.total ?? 0;

    expect((await deposit('5000000', 'dep-1')).body).toMatchObject({ balance: { total: 5_000_000 } });
    // A retry after a timeout whose first request had committed, and five more at once.
    const retries = await Promise.all(Array.from({ length: 6 }, () => deposit('5000000', 'dep-1')));
    expect(retries.map((r) => [r.status, r.body.replayed])).toEqual(Array(6).fill([200, true]));
    expect(await total()).toBe(5_000_000);
    // Five first requests at once with a new key: one applies.
    const racing = await Promise.all(Array.from({ length: 5 }, () => deposit('1000000', 'dep-2')));
    expect(racing.filter((r) => r.body.replayed !== true)).toHaveLength(1);
    expect(await total()).toBe(6_000_000);

    // A retry while the first is still being written: it waits for it, and is answered, not
    // refused for the balance the first took.
    const both = await Promise.all([withdraw('6000000', 'wd-1'), withdraw('6000000', 'wd-1')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.filter((r) => r.body.replayed === true)).toHaveLength(1);
    // Nothing left to withdraw, but this is the same withdrawal: answered, not refused.
    expect((await withdraw('6000000', 'wd-1')).body).toMatchObject({ replayed: true, balance: { total: 0 } });
    expect(await h.sql`SELECT count(*)::int AS n FROM operator_transfers WHERE address = ${address}`).toEqual([
      { n: 3 },
    ]);

    const conflict = { status: 409, body: { error: 'idempotency_key dep-1 was already used for another transfer' } };
    expect(await deposit('7000000', 'dep-1')).toMatchObject(conflict);
    expect(await withdraw('5000000', 'dep-1')).toMatchObject(conflict);
    expect((await deposit('1', 'a b')).status).toBe(400);
    // A replay is told from the row in Postgres, not from memory, so it holds across restarts too.
    expect((await deposit('5000000', 'dep-1')).body).toMatchObject({ replayed: true, balance: { total: 0 } });
    expect(await total()).toBe(0);
  });
});

// GET /data/order/{id} over an order's whole life, with ingest running: open (LIVE), then closed
// — filled (MATCHED), cancelled (CANCELED), an FAK's killed remainder (UNMATCHED) — answered from
// the front end's recently closed orders, and after a restart (memory gone) from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import type { Harness } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const USDC = 1_000_000n;
let system: ClobWithIngest;
let h: Harness;

beforeAll(async () => {
  system = await startClobWithIngest();
  h = system.h;
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('GET /data/order/{id}', () => {
  it('answers open, filled, cancelled and killed orders, from memory and after a restart from the ledger', async () => {
    const { conditionId, yes } = await h.createMarket();
    const maker = new Trader(h.url);
    const taker = new Trader(h.url);
    const stranger = new Trader(h.url);
    for (const t of [maker, taker, stranger]) await t.createApiKey();
    await h.deposit(maker.address, 50n * USDC, yes);
    await h.deposit(taker.address, 50n * USDC);

    const ask = await maker.placeOrder({ tokenId: yes, ...limit('SELL', '0.40', 10) });
    const resting = await maker.placeOrder({ tokenId: yes, ...limit('SELL', '0.70', 5) });
    const first = await taker.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 5) });
    const partly = (await maker.authed('GET', `/data/order/${ask.body.orderID}`)).body;
    expect(partly).toMatchObject({
      status: 'LIVE',
      size_matched: '5',
      original_size: '10',
      associate_trades: first.body.tradeIDs,
    });

    const second = await taker.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 5) });
    const cancelled = await maker.placeOrder({ tokenId: yes, ...limit('SELL', '0.60', 5) });
    expect((await maker.authed('DELETE', '/order', { orderID: cancelled.body.orderID })).body.canceled).toEqual([
      cancelled.body.orderID,
    ]);
    // An FAK for 8 finds the 5 resting at 0.70 and the rest is killed.
    const fak = await taker.placeOrder({ tokenId: yes, ...limit('BUY', '0.70', 8), orderType: 'FAK' });
    expect(fak.body).toMatchObject({ success: true, status: 'unmatched' });

    const expected = {
      [ask.body.orderID]: {
        owner: maker,
        fields: {
          status: 'MATCHED',
          size_matched: '10',
          original_size: '10',
          price: '0.4',
          side: 'SELL',
          market: conditionId,
          asset_id: yes,
          order_type: 'GTC',
          associate_trades: [...first.body.tradeIDs, ...second.body.tradeIDs],
        },
      },
      [second.body.orderID]: {
        owner: taker,
        fields: { status: 'MATCHED', size_matched: '5', side: 'BUY', associate_trades: second.body.tradeIDs },
      },
      [cancelled.body.orderID]: {
        owner: maker,
        fields: { status: 'CANCELED', size_matched: '0', price: '0.6', associate_trades: [] },
      },
      [fak.body.orderID]: {
        owner: taker,
        fields: {
          status: 'UNMATCHED',
          size_matched: '5',
          original_size: '8',
          order_type: 'FAK',
          price: '0.7',
          associate_trades: fak.body.tradeIDs,
        },
      },
      [resting.body.orderID]: {
        owner: maker,
        fields: { status: 'MATCHED', size_matched: '5', associate_trades: fak.body.tradeIDs },
      },
    };
    const expectAnswers = async () => {
      for (const [id, { owner, fields }] of Object.entries(expected)) {
        const answer = await owner.authed('GET', `/data/order/${id}`);
        expect(answer.status, id).toBe(200);
        expect(answer.body, id).toMatchObject({ id, ...fields });
        expect((await stranger.authed('GET', `/data/order/${id}`)).status).toBe(404);
      }
    };
    await expectAnswers();

    // Once ingest has every order closed in the ledger, a restart leaves only the ledger to answer.
    await expect
      .poll(
        async () =>
          (
            await h.sql`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY(${Object.keys(expected)}) AND status <> 'live'`
          )[0]?.n,
        { timeout: 15_000 },
      )
      .toBe(Object.keys(expected).length);
    await h.restart();
    for (const t of [maker, taker, stranger]) t.baseUrl = h.url;
    await expectAnswers();
    expect((await maker.authed('GET', `/data/order/0x${'ab'.repeat(32)}`)).status).toBe(404);
    expect(await checkLedger(h.sql)).toEqual([]);
    h.expectConsistent();
  });
});

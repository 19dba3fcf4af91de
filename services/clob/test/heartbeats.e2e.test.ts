// The heartbeat dead-man's switch on a real server: armed by a market maker's bot, kept alive,
// and, once the bot goes silent, every open order of its API key cancelled and released.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startClob, type Harness } from '../src/testing/clob-harness.ts';
import { Trader, limit } from '@pmx/testkit';

const USDC = 1_000_000n;
let h: Harness;

beforeAll(async () => {
  h = await startClob({ PMX_HEARTBEAT_TIMEOUT_MS: '2000' });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  h.expectConsistent();
});

async function bot(): Promise<Trader> {
  const trader = new Trader(h.url);
  await trader.createApiKey();
  await h.deposit(trader.address, 100n * USDC);
  return trader;
}

const beat = async (trader: Trader, id: string | undefined) =>
  trader.authed('POST', '/v1/heartbeats', id === undefined ? undefined : { heartbeat_id: id });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const openOrders = async (trader: Trader) => (await trader.authed('GET', '/data/orders')).body.data.length as number;

describe('heartbeats', () => {
  it('keeps orders while the bot beats, and cancels them all once it goes silent', async () => {
    const { yes, no } = await h.createMarket();
    const mm = await bot();
    const bystander = await bot(); // never armed: its orders stay
    const armed = await beat(mm, '');
    expect(armed.status).toBe(200);
    const id = armed.body.heartbeat_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await mm.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) });
    await mm.placeOrder({ tokenId: no, ...limit('BUY', '0.50', 10) });
    await bystander.placeOrder({ tokenId: yes, ...limit('BUY', '0.30', 10) });

    for (let i = 0; i < 8; i++) {
      // 2.4 s, past the 2 s timeout
      await sleep(300);
      expect((await beat(mm, id)).body).toEqual({ heartbeat_id: id });
    }
    expect(await openOrders(mm)).toBe(2);

    await expect.poll(() => openOrders(mm), { timeout: 8000, interval: 100 }).toBe(0);
    expect((await mm.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body).toMatchObject({
      balance: String(100n * USDC),
      allowance: String(100n * USDC),
    });
    expect(await openOrders(bystander)).toBe(1);
    // The old id is gone; "" arms a new switch.
    expect((await beat(mm, id)).status).toBe(400);
    const again = await beat(mm, '');
    expect(again.status).toBe(200);
    expect(again.body.heartbeat_id).not.toBe(id);
  });

  it('answers bad heartbeats with 400 and the error shape', async () => {
    const mm = await bot();
    const expect400 = (response: { status: number; body: any }, message: RegExp) => {
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(response.body.error).toMatch(message);
    };
    expect400(await beat(mm, 'not-armed'), /send "" to start/);
    expect400(await mm.authed('POST', '/v1/heartbeats', '{"heartbeat_id": '), /JSON/i);
    expect400(await mm.authed('POST', '/v1/heartbeats', { heartbeat_id: 5 }), /heartbeat_id must be a string/);
    expect400(await mm.authed('POST', '/v1/heartbeats', { heartbeat_id: '', extra: 1 }), /unknown field extra/);
    expect400(await mm.authed('POST', '/v1/heartbeats', ['']), /the body must be/);
    expect((await beat(mm, undefined)).status).toBe(200); // no body: arm
    expect((await mm.send('POST', '/heartbeats')).status).toBe(401); // level 2 only
  });
});

// The heartbeat switch across a restart of the front end, with ingest running (a restart recovers
// the books from the ledger): a bot that died while the front end was down has its orders
// cancelled once it is back; a bot that is alive goes on beating with the id it had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import type { Harness } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const USDC = 1_000_000n;
let system: ClobWithIngest;
let h: Harness;

beforeAll(async () => {
  system = await startClobWithIngest({ PMX_HEARTBEAT_TIMEOUT_MS: '2000' });
  h = system.h;
}, 120_000);

afterAll(async () => {
  await system?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bot(): Promise<Trader> {
  const trader = new Trader(h.url);
  await trader.createApiKey();
  await h.deposit(trader.address, 100n * USDC);
  return trader;
}

describe('heartbeats across a restart', () => {
  it('keeps switches: a bot that died meanwhile has its orders cancelled, a live one goes on with its id', async () => {
    const { yes } = await h.createMarket();
    const beat = async (trader: Trader, id: string) => trader.authed('POST', '/v1/heartbeats', { heartbeat_id: id });
    const openOrders = async (trader: Trader) =>
      (await trader.authed('GET', '/data/orders')).body.data.length as number;
    const dead = await bot();
    const alive = await bot();
    expect((await beat(dead, '')).status).toBe(200);
    const aliveId = (await beat(alive, '')).body.heartbeat_id as string;
    await dead.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) });
    await alive.placeOrder({ tokenId: yes, ...limit('BUY', '0.41', 10) });

    // A restart keeps every switch armed: disarmed, the dead bot's order would stay live for ever.
    await h.restart();
    for (const trader of [dead, alive]) trader.baseUrl = h.url;
    for (let i = 0; i < 10; i++) {
      // 3 s, past the 2 s timeout counted from the restart
      expect((await beat(alive, aliveId)).body).toEqual({ heartbeat_id: aliveId });
      await sleep(300);
    }
    await expect.poll(() => openOrders(dead), { timeout: 8000, interval: 100 }).toBe(0);
    expect(await openOrders(alive)).toBe(1);
    h.expectConsistent();

    // The fired switch is forgotten, so a later restart does not arm it again; the live one is kept.
    const stored = async () =>
      (await h.sql<{ api_key: string }[]>`SELECT api_key::text FROM heartbeat_switches`).map((row) => row.api_key);
    await expect.poll(async () => (await stored()).includes(dead.credentials!.apiKey)).toBe(false);
    expect(await stored()).toContain(alive.credentials!.apiKey);
    await expect.poll(async () => checkLedger(h.sql), { timeout: 10_000 }).toEqual([]);
  }, 60_000);
});

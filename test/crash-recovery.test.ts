// Crash recovery across real processes (docs/design/durability.md): orders flow through the
// trading front end while it and ingest are killed with SIGKILL at random points, several times,
// and restarted.
// Afterwards every acknowledged order and trade is in Postgres exactly once, the books and
// balances a restart rebuilds equal those before it, and the ledger balances and conserves.
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import { Trader, limit } from '@pmx/testkit';
import { serviceProcesses, type ServiceProcesses } from './service-processes.ts';

let services: ServiceProcesses;
let url: string;
const USDC = 1_000_000n;
const operator = (method: string, path: string, body?: unknown) => services.operator(method, path, body);
const start = (name: 'clob' | 'ingest') => services.start(name);
const kill = (name: 'clob' | 'ingest') => services.kill(name);
const ready = () => services.ready();
const drained = () => services.drained();

const acked = new Set<string>();
const trades = new Set<string>();
/** Signed bodies of acknowledged orders, to replay after the last restart. */
const replays: { trader: Trader; body: Record<string, unknown> }[] = [];

/** Random limit orders and cancels from every trader until `stop` resolves; failures while killed are expected. */
async function traffic(traders: Trader[], tokens: string[], stopAt: number): Promise<void> {
  await Promise.all(
    traders.map(async (trader) => {
      const mine: string[] = [];
      while (Date.now() < stopAt) {
        try {
          if (mine.length > 3 && randomInt(4) === 0) {
            const id = mine.splice(randomInt(mine.length), 1)[0]!;
            await trader.authed('DELETE', '/order', { orderID: id });
            continue;
          }
          const tokenId = tokens[randomInt(tokens.length)]!;
          const side = randomInt(2) === 0 ? 'BUY' : 'SELL';
          // Now and then an order signed long ago (outside the replay window: a ledger lookup) or
          // a minute ahead (a client clock running fast; further ahead is refused).
          const skew = [0, 0, 0, 0, 0, 0, -3_600_000, 60_000][randomInt(8)]!;
          const body = await trader.signOrder({
            tokenId,
            ...limit(side, `0.${45 + randomInt(11)}`, 5 + randomInt(10)),
            timestamp: Date.now() + skew,
          });
          const response = await trader.authed('POST', '/order', body);
          if (response.status === 200 && response.body.success) {
            acked.add(response.body.orderID);
            replays.push({ trader, body });
            for (const trade of response.body.tradeIDs) trades.add(trade);
            if (response.body.status === 'live') mine.push(response.body.orderID);
          }
        } catch {
          await new Promise((r) => setTimeout(r, 50)); // the front end is down: try again shortly
        }
      }
    }),
  );
}

async function snapshot(traders: Trader[], tokens: string[]) {
  const state = await operator('GET', '/operator/state');
  const books = await Promise.all(
    tokens.map(async (t) => {
      const book = (await (await fetch(`${url}/book?token_id=${t}`)).json()) as Record<string, unknown>;
      return { bids: book.bids, asks: book.asks, last: book.last_trade_price };
    }),
  );
  const balances = await Promise.all(traders.map((t) => operator('GET', `/operator/balances?address=${t.address}`)));
  return { shards: state.shards, invariants: state.invariants, books, balances };
}

beforeAll(async () => {
  services = await serviceProcesses();
  url = services.url;
  start('ingest');
  start('clob');
  await ready();
}, 120_000);

afterAll(async () => {
  await services?.close();
});

describe('crash recovery', () => {
  it('keeps every acknowledged order and trade, and rebuilds books and balances, through SIGKILLs', async () => {
    const markets: { yes: string; no: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const yes = BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
      const no = BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
      await operator('POST', '/operator/markets', {
        condition_id: `0x${randomBytes(32).toString('hex')}`,
        question: `Crash ${i}?`,
        tokens: [
          { token_id: yes, outcome: 'Yes' },
          { token_id: no, outcome: 'No' },
        ],
      });
      markets.push({ yes, no });
    }
    const tokens = markets.flatMap((m) => [m.yes, m.no]);
    const traders: Trader[] = [];
    for (let i = 0; i < 4; i++) {
      const trader = new Trader(url);
      await trader.createApiKey();
      await operator('POST', '/operator/deposit', { address: trader.address, amount: String(100_000n * USDC) });
      for (const token of tokens)
        await operator('POST', '/operator/deposit', {
          address: trader.address,
          asset: token,
          amount: String(10_000n * USDC),
        });
      traders.push(trader);
    }

    for (let round = 0; round < 3; round++) {
      const stopAt = Date.now() + 2500;
      const flow = traffic(traders, tokens, stopAt);
      await new Promise((r) => setTimeout(r, 400 + randomInt(1200)));
      const killIngest = round !== 1;
      if (killIngest) await kill('ingest');
      await kill('clob');
      await flow;
      if (killIngest) start('ingest');
      start('clob');
      await ready();
    }
    await traffic(traders, tokens, Date.now() + 800);
    await drained();

    expect(acked.size).toBeGreaterThan(20);
    expect(trades.size).toBeGreaterThan(0);
    const ackedIds = [...acked];
    const [orders] = await services.db.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY(${ackedIds})`;
    expect(orders!.n).toBe(ackedIds.length);
    const [found] = await services.db.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM trades WHERE trade_id = ANY(${[...trades]})`;
    expect(found!.n).toBe(trades.size);
    expect(await checkLedger(services.db.sql)).toEqual([]);

    const before = await snapshot(traders, tokens);
    expect(before.invariants).toEqual([]);
    await kill('clob');
    start('clob');
    await ready();
    const after = await snapshot(traders, tokens);
    expect(after).toEqual(before);

    // Every acknowledged order stays used through restarts, inside the replay window (from memory,
    // reloaded from the ledger) and outside it (a ledger lookup).
    const stale = replays.filter(
      (r) => Math.abs(Number((r.body.order as { timestamp: string }).timestamp) - Date.now()) > 120_000,
    );
    expect(stale.length).toBeGreaterThan(0);
    for (const { trader, body } of [...stale, ...replays.slice(0, 40)]) {
      const response = await trader.authed('POST', '/order', body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/Duplicated/);
    }
  }, 240_000);
});

// Gateways and cores as a cluster, in one test process (docs/design/cluster.md): two gateways
// linked over the WebSocket to an active core with a standby beside it, ingest applying the shard
// queues. Orders through either gateway meet in one book that both show; when the active core
// stops, the standby takes the shard locks and acknowledges orders again, and nothing
// acknowledged is lost. (test/cluster-hosts.test.ts does the same with processes, SIGKILL and
// network namespaces.)
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest, type Ingest } from '@pmx/ingest';
import { checkLedger } from '@pmx/ledger';
import {
  loadClobConfig,
  startCoreProcess,
  startGatewayProcess,
  type CoreProcess,
  type GatewayProcess,
} from '@pmx/clob/testing';
import {
  Trader,
  cleanupRedisPrefix,
  createTestDatabase,
  eventually,
  limit,
  operatorCall,
  testkitConfig,
  testRedisPrefix,
  type TestDatabase,
} from '@pmx/testkit';

const USDC = 1_000_000n;
const operatorKey = randomBytes(16).toString('hex');
const prefix = testRedisPrefix();
let db: TestDatabase;
let redis: Redis;
let ingest: Ingest;
const cores: CoreProcess[] = [];
const gateways: GatewayProcess[] = [];

function config(extra: Record<string, string>) {
  return loadClobConfig({
    PMX_PG_URL: db.url,
    PMX_REDIS_URL: testkitConfig.redisUrl,
    PMX_REDIS_PREFIX: prefix.slice(0, -1),
    PMX_SHARDS: '2',
    PMX_VERIFY_THREADS: '1',
    PMX_OPERATOR_KEY: operatorKey,
    PMX_HISTORY: 'false',
    PMX_CLOB_DIRECT_PORT: '0',
    PMX_CLOB_SOCKET: '',
    PMX_CORE_PORT: '0',
    ...extra,
  });
}

const gatewayUrl = (i: number) => `http://127.0.0.1:${gateways[i]!.listening.port}`;
const coreUrl = (core: CoreProcess) => `http://127.0.0.1:${core.listening.port}`;

function operator(core: CoreProcess, method: string, path: string, body?: unknown): Promise<any> {
  return operatorCall(coreUrl(core), operatorKey, method, path, body);
}

/** A market (minimum size 1) whose first token is `yes`, a seller holding `tokens` of it on gateway 0, a buyer on gateway 1. */
async function marketWithTraders(
  core: CoreProcess,
  yes: string,
  tokens: bigint,
): Promise<{ seller: Trader; buyer: Trader; conditionId: string }> {
  const conditionId = `0x${randomBytes(32).toString('hex')}`;
  await operator(core, 'POST', '/operator/markets', {
    condition_id: conditionId,
    question: `Market ${yes}?`,
    min_order_size: '1',
    tokens: [
      { token_id: yes, outcome: 'Yes' },
      { token_id: `${yes}0`, outcome: 'No' },
    ],
  });
  const seller = new Trader(gatewayUrl(0));
  const buyer = new Trader(gatewayUrl(1));
  for (const trader of [seller, buyer]) {
    await trader.createApiKey();
    await operator(core, 'POST', '/operator/deposit', { address: trader.address, amount: String(1000n * USDC) });
  }
  await operator(core, 'POST', '/operator/deposit', { address: seller.address, asset: yes, amount: String(tokens) });
  return { seller, buyer, conditionId };
}

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(testkitConfig.redisUrl, { maxRetriesPerRequest: null });
  ingest = await startIngest({ sql: db.sql, redis, prefix: prefix.slice(0, -1), shards: 2 });
  cores.push(await startCoreProcess(config({})));
  await cores[0]!.core.ready;
  cores.push(await startCoreProcess(config({ PMX_CORE_STANDBY: 'true' })));
  const urls = cores.map((core) => `ws://127.0.0.1:${core.listening.port}`).join(',');
  for (let i = 0; i < 2; i++) gateways.push(await startGatewayProcess(config({ PMX_CORE_URLS: urls })));
  await Promise.all(gateways.map((g) => g.client.connectedOnce));
}, 120_000);

afterAll(async () => {
  for (const gateway of gateways) await gateway.close().catch(() => {});
  for (const core of cores) await core.close().catch(() => {});
  await ingest?.close();
  await cleanupRedisPrefix(redis, prefix);
  redis?.disconnect();
  await db?.drop();
});

describe('a cluster of two gateways and a core with a standby', () => {
  it('shows a trade as MATCHED on every gateway at once, and as CONFIRMED once ingest has it', async () => {
    const core = cores[0]!;
    const { seller, buyer } = await marketWithTraders(core, '881', 10n * USDC);
    await ingest.close(); // held back: the ledger does not have the trade yet
    await seller.authed('POST', '/order', await seller.signOrder({ tokenId: '881', ...limit('SELL', '0.3', 2) }));
    const bid = await buyer.authed(
      'POST',
      '/order',
      await buyer.signOrder({ tokenId: '881', ...limit('BUY', '0.3', 2) }),
    );
    const [tradeId] = bid.body.tradeIDs as string[];
    // The seller asks the other gateway: it heard of the trade from the core too.
    seller.baseUrl = gatewayUrl(1);
    for (const [trader, type] of [
      [buyer, 'TAKER'],
      [seller, 'MAKER'],
    ] as const) {
      const trades = await trader.authed('GET', '/data/trades');
      expect(trades.body.data).toMatchObject([
        { id: tradeId, status: 'MATCHED', side: 'BUY', size: '2', price: '0.3', asset_id: '881', type },
      ]);
    }
    ingest = await startIngest({ sql: db.sql, redis, prefix: prefix.slice(0, -1), shards: 2 });
    await eventually(async () => {
      const trades = await buyer.authed('GET', '/data/trades');
      expect(trades.body.data).toMatchObject([{ id: tradeId, status: 'CONFIRMED' }]);
    });
  }, 60_000);

  it('tells every gateway of a pause and a resume, and splits collateral through a gateway in the core', async () => {
    const core = cores[0]!;
    const { seller: trader, conditionId } = await marketWithTraders(core, '991', 1n * USDC);
    await operator(core, 'POST', `/operator/markets/${conditionId}/pause`);
    for (const i of [0, 1]) {
      const market = await (await fetch(`${gatewayUrl(i)}/markets/${conditionId}`)).json();
      expect(market).toMatchObject({ accepting_orders: false });
    }
    trader.baseUrl = gatewayUrl(1);
    const refused = await trader.authed(
      'POST',
      '/order',
      await trader.signOrder({ tokenId: '991', ...limit('BUY', '0.5', 2) }),
    );
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^market is paused/) } });
    await operator(core, 'POST', `/operator/markets/${conditionId}/resume`);
    const split = await trader.authed('POST', '/split', { market: conditionId, amount: String(3n * USDC) });
    expect(split.status).toBe(200);
    expect(split.body.balances['991']).toMatchObject({ balance: String(4n * USDC) });
    const placed = await trader.authed(
      'POST',
      '/order',
      await trader.signOrder({ tokenId: '991', ...limit('SELL', '0.5', 2) }),
    );
    expect(placed.body).toMatchObject({ success: true, status: 'live' });
    expect(core.core.core.risk.checkInvariants()).toEqual([]);
  }, 60_000);

  it('matches orders from either gateway in one book, and takes orders again within 2 s of a takeover', async () => {
    const active = cores[0]!;
    const standby = cores[1]!;
    const health = async (core: CoreProcess) => (await fetch(`${coreUrl(core)}/health`)).status;
    expect([await health(active), await health(standby)]).toEqual([200, 503]);

    const { seller, buyer } = await marketWithTraders(active, '771', 100n * USDC);

    const ask = await seller.authed(
      'POST',
      '/order',
      await seller.signOrder({ tokenId: '771', ...limit('SELL', '0.6', 10) }),
    );
    expect(ask.body).toMatchObject({ success: true, status: 'live' });
    // The other gateway shows the resting order at once: both follow the core's book.
    const book = (await (await fetch(`${gatewayUrl(1)}/book?token_id=771`)).json()) as { asks: unknown };
    expect(book.asks).toEqual([{ price: '0.6', size: '10' }]);
    const bid = await buyer.authed(
      'POST',
      '/order',
      await buyer.signOrder({ tokenId: '771', ...limit('BUY', '0.6', 4) }),
    );
    expect(bid.body).toMatchObject({ success: true, status: 'matched', tradeIDs: [expect.any(String)] });
    const mine = await seller.authed('GET', '/data/orders');
    expect(mine.body.data).toMatchObject([{ id: ask.body.orderID, size_matched: '4' }]);

    // The active core stops; the standby takes the locks, recovers from the ledger, and the
    // gateways find it.
    const stoppedAt = performance.now();
    await active.close();
    cores.shift();
    let ackedAfter = 0;
    await eventually(
      async () => {
        const again = await buyer.authed(
          'POST',
          '/order',
          await buyer.signOrder({ tokenId: '771', ...limit('BUY', '0.6', 1) }),
        );
        expect(again.body).toMatchObject({ success: true, status: 'matched' });
        ackedAfter = performance.now() - stoppedAt;
      },
      15_000,
      'an order acknowledged by the standby',
      50,
    );
    expect(await health(standby)).toBe(200);
    expect(ackedAfter).toBeLessThan(2000);
    const after = await seller.authed('GET', '/data/orders');
    expect(after.body.data).toMatchObject([{ id: ask.body.orderID, size_matched: '5' }]);
    expect(standby.core.core.risk.checkInvariants()).toEqual([]);
    await eventually(async () => expect(await checkLedger(db.sql)).toEqual([]));
  }, 60_000);
});

// The cluster across hosts (docs/design/cluster.md): every process on a host of its own (a
// network namespace with its own address, test/netns-hosts.ts) — the edge, two gateways, the
// core and its standby, ingest — with a steady order load through the edge. A gateway is killed
// with SIGKILL, then the active core: no acknowledged order is lost, the standby takes over and
// acknowledges orders again, and the ledger balances and conserves at the end.
import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import {
  Trader,
  cleanupRedisPrefix,
  createTempDir,
  createTestDatabase,
  eventually,
  limit,
  operatorCall,
  testkitConfig,
  testRedisPrefix,
  type TempDir,
  type TestDatabase,
} from '@pmx/testkit';
import { makeHosts, type Hosts } from './netns-hosts.ts';
import { ChildProcesses } from './child-processes.ts';

const USDC = 1_000_000n;
const SHARDS = 2;
const operatorKey = randomBytes(16).toString('hex');
const prefix = testRedisPrefix();
/** Which host runs what. */
const HOST = { edge: 0, gateway0: 1, gateway1: 2, core0: 3, core1: 4, ingest: 5 } as const;
type Role = keyof typeof HOST;
const CORE_PORT = 8090;
const GATEWAY_PORT = 18100;

let hosts: Hosts;
let db: TestDatabase;
let dir: TempDir;
const processes = new ChildProcesses<Role>();
let baseEnv: NodeJS.ProcessEnv;

const edgeUrl = () => `http://${hosts.address(HOST.edge)}:8080`;
const operator = (method: string, path: string, body?: unknown) =>
  operatorCall(edgeUrl(), operatorKey, method, path, body);

const SCRIPTS: Record<Role, string> = {
  edge: 'services/edge/src/main.ts',
  gateway0: 'services/clob/src/gateway-main.ts',
  gateway1: 'services/clob/src/gateway-main.ts',
  core0: 'services/clob/src/core-main.ts',
  core1: 'services/clob/src/core-main.ts',
  ingest: 'services/ingest/src/main.ts',
};

function roleEnv(role: Role): NodeJS.ProcessEnv {
  const cores = [HOST.core0, HOST.core1].map((h) => `ws://${hosts.address(h)}:${CORE_PORT}`).join(',');
  switch (role) {
    case 'edge':
      return {
        PMX_CLOB_HOST: hosts.address(HOST.edge),
        PMX_CATALOG_HOST: hosts.address(HOST.edge),
        PMX_DATA_HOST: hosts.address(HOST.edge),
        PMX_EDGE_STATS_HOST: hosts.address(HOST.edge),
        PMX_EDGE_CLOB_SERVERS: [HOST.gateway0, HOST.gateway1]
          .map((h) => `${hosts.address(h)}:${GATEWAY_PORT}`)
          .join(','),
        PMX_EDGE_CORE_SERVERS: [HOST.core0, HOST.core1].map((h) => `${hosts.address(h)}:${CORE_PORT}`).join(','),
        PMX_EDGE_RUN_DIR: `${dir.path}/edge`,
      };
    case 'gateway0':
    case 'gateway1':
      return {
        PMX_CLOB_LISTEN_HOST: hosts.address(HOST[role]),
        PMX_CLOB_DIRECT_PORT: String(GATEWAY_PORT),
        PMX_CLOB_SOCKET: '',
        PMX_CORE_URLS: cores,
        PMX_CORE_WAIT_MS: '5000',
      };
    case 'core0':
    case 'core1':
      return { PMX_CORE_HOST: hosts.address(HOST[role]), PMX_CORE_PORT: String(CORE_PORT), PMX_CORE_STANDBY: 'true' };
    case 'ingest':
      return {};
  }
}

function start(role: Role): void {
  processes.start(role, SCRIPTS[role], { ...baseEnv, ...roleEnv(role) }, hosts.on(HOST[role]));
}

function kill(role: Role): Promise<void> {
  return processes.kill(role);
}

const acked = new Map<string, number>();
let lastAckAt = 0;

/** Limit orders and the odd cancel from every trader through the edge until `stopAt`; failures while a process dies are expected. */
async function traffic(traders: Trader[], tokens: string[], stopAt: number): Promise<void> {
  await Promise.all(
    traders.map(async (trader) => {
      const mine: string[] = [];
      while (Date.now() < stopAt) {
        try {
          if (mine.length > 3 && randomInt(4) === 0) {
            await trader.authed('DELETE', '/order', { orderID: mine.splice(randomInt(mine.length), 1)[0]! });
            continue;
          }
          const body = await trader.signOrder({
            tokenId: tokens[randomInt(tokens.length)]!,
            ...limit(randomInt(2) === 0 ? 'BUY' : 'SELL', `0.${45 + randomInt(11)}`, 5 + randomInt(10)),
          });
          const response = await trader.authed('POST', '/order', body);
          if (response.status === 200 && response.body.success) {
            acked.set(response.body.orderID, performance.now());
            lastAckAt = performance.now();
            if (response.body.status === 'live') mine.push(response.body.orderID);
          } else await new Promise((r) => setTimeout(r, 20));
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }),
  );
}

beforeAll(async () => {
  hosts = await makeHosts(6);
  if (hosts.kind === 'loopback')
    console.warn(`network namespaces unavailable (${hosts.why}); hosts are loopback addresses`);
  db = await createTestDatabase();
  dir = await createTempDir();
  const pg = new URL(db.url);
  pg.host = await hosts.reach(Number(pg.port || 5432));
  const redis = new URL(testkitConfig.redisUrl);
  redis.host = await hosts.reach(Number(redis.port || 6379));
  baseEnv = {
    ...process.env,
    PMX_PG_URL: pg.href,
    PMX_REDIS_URL: redis.href,
    PMX_REDIS_PREFIX: prefix.slice(0, -1),
    PMX_SHARDS: String(SHARDS),
    PMX_VERIFY_THREADS: '1',
    PMX_OPERATOR_KEY: operatorKey,
    PMX_RATE_LIMITS: 'false',
    PMX_HISTORY: 'false',
    PMX_INGEST_HISTORY: 'false',
    PMX_CLICKHOUSE_PATH: dir.path,
    PMX_LOG_LEVEL: 'warn',
  };
  for (const role of Object.keys(HOST) as Role[]) start(role);
  await eventually(
    async () => (await operator('GET', '/operator/state')).ready === true,
    90_000,
    `the cluster to open:\n${processes.tail()}`,
    200,
  );
}, 120_000);

afterAll(async () => {
  await processes.killAll();
  await hosts?.remove();
  const redis = new Redis(testkitConfig.redisUrl);
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await db?.drop();
  await dir?.remove();
});

describe('the cluster across hosts', () => {
  it('loses no acknowledged order when a gateway and then the active core are killed under load', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const [yes, no] = [`${Date.now()}${i}1`, `${Date.now()}${i}2`];
      await operator('POST', '/operator/markets', {
        condition_id: `0x${randomBytes(32).toString('hex')}`,
        question: `Hosts ${i}?`,
        tokens: [
          { token_id: yes, outcome: 'Yes' },
          { token_id: no, outcome: 'No' },
        ],
      });
      tokens.push(yes, no);
    }
    const traders: Trader[] = [];
    for (let i = 0; i < 4; i++) {
      const trader = new Trader(edgeUrl(), undefined, '_');
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

    // Both gateways follow the core: the same books, read from each host directly.
    const flow = traffic(traders, tokens, Date.now() + 9000);
    await new Promise((r) => setTimeout(r, 1500));
    const books = await Promise.all(
      [HOST.gateway0, HOST.gateway1].map(
        async (h) => (await fetch(`http://${hosts.address(h)}:${GATEWAY_PORT}/book?token_id=${tokens[0]}`)).status,
      ),
    );
    expect(books).toEqual([200, 200]);
    const beforeGatewayKill = acked.size;
    await kill('gateway0');
    await new Promise((r) => setTimeout(r, 2500));
    expect(acked.size).toBeGreaterThan(beforeGatewayKill); // the edge took the dead gateway out

    const active = (await operator('GET', '/operator/state')).ready ? await activeCore() : undefined;
    expect(active).toBeDefined();
    const coreKilledAt = performance.now();
    await kill(active!);
    await flow;
    const firstAfter = Math.min(...[...acked.values()].filter((at) => at > coreKilledAt));
    const takeoverMs = firstAfter - coreKilledAt;
    console.log(`orders acknowledged again ${Math.round(takeoverMs)} ms after the active core's SIGKILL`);
    expect(lastAckAt).toBeGreaterThan(coreKilledAt);
    expect(takeoverMs).toBeLessThan(2000);

    // Everything acknowledged reached the ledger, which balances.
    const ids = [...acked.keys()];
    expect(ids.length).toBeGreaterThan(20);
    await eventually(
      async () => {
        const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY(${ids})`;
        expect(row!.n).toBe(ids.length);
      },
      20_000,
      'every acknowledged order in the ledger',
      200,
    );
    expect(await checkLedger(db.sql)).toEqual([]);
    expect((await operator('GET', '/operator/state')).invariants).toEqual([]);
  }, 120_000);
});

/** The role of the core whose /health answers 200. */
async function activeCore(): Promise<'core0' | 'core1' | undefined> {
  for (const role of ['core0', 'core1'] as const) {
    const status = await fetch(`http://${hosts.address(HOST[role])}:${CORE_PORT}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return role;
  }
  return undefined;
}

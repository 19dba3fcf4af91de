// The four-trader market lifecycle of lifecycle-scenario.ts with the front end and ingest as real
// processes, SIGKILLed between steps: sometimes with a step's events still only in the shard
// queues (ingest down), so that recovery must apply them before the books and balances are
// rebuilt. After every restart the figures the scenario expects hold to the base unit (nothing
// lost or doubled) and the invariant holds; a paused, closed or resolved market stays so.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Trader } from '@pmx/testkit';
import { serviceProcesses, type ServiceName, type ServiceProcesses } from './service-processes.ts';
import { runLifecycle, type LifecycleSystem, type Market } from './lifecycle-scenario.ts';

let services: ServiceProcesses;

beforeAll(async () => {
  services = await serviceProcesses();
  services.start('ingest');
  services.start('clob');
  await services.ready();
}, 120_000);

afterAll(async () => {
  await services?.close();
});

/**
 * What is killed around each step: `after` once its checks passed (ingest stays down into the
 * next step when only it is named and `before` of the next step restarts it); `before` ahead of
 * its checks, with the step's events possibly not yet in the ledger.
 */
const PLAN: Record<string, { before?: ServiceName[]; after?: ServiceName[] }> = {
  deposit: { after: ['ingest'] },
  split: { before: ['clob'] },
  trades: { after: ['ingest'] },
  merge: { before: ['clob'] },
  pause: { after: ['clob', 'ingest'] },
  resume: { after: ['ingest'] },
  close: { before: ['clob'] },
  resolve: { after: ['clob', 'ingest'] },
  redeem: { before: ['ingest', 'clob'] },
};

/**
 * Kills `names`, then starts again whatever is down. With events waiting in the queues (ingest
 * was down), the front end starts first and reads the ledger behind them; ingest comes once it
 * answers, so its recovery must take what the queues add (the market's state among it).
 */
async function restart(names: ServiceName[]): Promise<void> {
  for (const name of names) await services.kill(name);
  for (const name of names) down.add(name);
  if (down.has('clob')) {
    services.start('clob');
    if (down.has('ingest')) {
      await expect
        .poll(
          () =>
            services.operator('GET', '/operator/state').then(
              () => true,
              () => false,
            ),
          { timeout: 60_000 },
        )
        .toBe(true);
    }
  }
  if (down.has('ingest')) services.start('ingest');
  if (down.has('clob')) await services.ready();
  down.clear();
}
const down = new Set<ServiceName>();

it('keeps every movement of a market’s life exactly once through SIGKILLs of ingest and the front end between steps', async () => {
  const id = () => BigInt(`0x${randomBytes(12).toString('hex')}`).toString();
  const market: Market = { conditionId: `0x${randomBytes(32).toString('hex')}`, yes: id(), no: id() };
  const traders = Array.from({ length: 4 }, () => new Trader(services.url)) as [Trader, Trader, Trader, Trader];
  for (const trader of traders) await trader.createApiKey();
  const kills: string[] = [];
  /** The market's place in its life survived the restart (the front end and its shard agree on it). */
  const expectStatus = async (step: string) => {
    const shown = await services.operator('GET', `/markets/${market.conditionId}`);
    expect(shown.status, step).toBe(STATUS[step]);
  };
  const system: LifecycleSystem = {
    url: services.url,
    operatorKey: services.operatorKey,
    sql: services.db.sql,
    async beforeCheck(step) {
      const plan = PLAN[step]?.before ?? [];
      if (plan.length === 0 && !down.has('ingest')) return;
      kills.push(`before ${step}: ${plan.join(', ') || 'none'}`);
      await restart(plan);
      await expectStatus(step);
    },
    async between(step) {
      const plan = PLAN[step]?.after ?? [];
      if (plan.length === 0) return;
      kills.push(`after ${step}: ${plan.join(', ')}`);
      if (plan.length === 1 && plan[0] === 'ingest') {
        await services.kill('ingest'); // down through the next step: its events wait in the queues
        down.add('ingest');
        return;
      }
      await restart(plan);
      await expectStatus(step);
    },
  };
  try {
    await runLifecycle(system, traders, market);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\nkills: ${kills.join('; ')}\n${services.output.slice(-20).join('\n')}`,
      {
        cause: error,
      },
    );
  }
  expect(kills.length).toBe(9);
}, 240_000);

/** GET /markets/{condition_id}'s `status` after each step. */
const STATUS: Record<string, string> = {
  deposit: 'active',
  split: 'active',
  trades: 'active',
  merge: 'active',
  pause: 'paused',
  resume: 'active',
  close: 'closed',
  resolve: 'resolved',
  redeem: 'resolved',
};

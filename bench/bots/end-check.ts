// The end-of-run check, once the crowd has stopped and the shard queues are drained: every fill a
// bot saw is in the ledger and the ledger has none it did not see, every bot's balances are what
// it believes and what the ledger and the exchange hold, nothing is left in doubt (an answer of
// unknown outcome not settled by a look-up), no bot order is left open, and the
// ledger's invariants (conservation of collateral and tokens; docs/design/money.md) hold.

import type { Sql } from '@pmx/db';
import { checkLedger } from '@pmx/ledger';
import { COLLATERAL, type RunMarket } from './belief.ts';
import type { BotTrader } from './bot-trader.ts';
import type { Reconciler } from './reconciler.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

const SHOWN = 5;

function result(name: string, problems: string[], okDetail: string): CheckResult {
  const more = problems.length > SHOWN ? ` (and ${problems.length - SHOWN} more)` : '';
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? okDetail : problems.slice(0, SHOWN).join('; ') + more,
  };
}

/** Reads every bot's trades to the end and takes in the fills of its resting orders they show. */
async function settleBeliefs(bots: readonly BotTrader[], reconciler: Reconciler): Promise<string[]> {
  const problems: string[] = [];
  for (const bot of bots) {
    await reconciler.trades(bot, true);
    const makerFills = reconciler.makerFills.get(bot) ?? new Map<string, number>();
    const takerSizes = reconciler.takerSizes.get(bot) ?? new Map<string, number>();
    for (const order of bot.belief.orders.values()) {
      const ledger = order.takerMatched + (makerFills.get(order.id) ?? 0);
      if (ledger < order.matched)
        problems.push(
          `${bot.name}: order ${order.id} matched ${order.matched} as the bot saw, ${ledger} in the ledger`,
        );
      else bot.belief.matchedNow(order.id, ledger);
      const took = takerSizes.get(order.id) ?? 0;
      if (took !== order.takerMatched)
        problems.push(
          `${bot.name}: order ${order.id} took ${order.takerMatched} when placed, its trades sum to ${took}`,
        );
    }
  }
  return problems;
}

async function tradesAgree(sql: Sql, bots: readonly BotTrader[], markets: readonly RunMarket[]): Promise<string[]> {
  const seen = new Set(bots.flatMap((bot) => [...bot.belief.takerTrades]));
  const rows = await sql<{ trade_id: string }[]>`
    SELECT trade_id FROM trades WHERE market = ANY(${markets.map((m) => m.conditionId)})`;
  const inLedger = new Set(rows.map((r) => r.trade_id));
  const lost = [...seen].filter((id) => !inLedger.has(id)).map((id) => `trade ${id} a bot took is not in the ledger`);
  const unseen = [...inLedger]
    .filter((id) => !seen.has(id))
    .map((id) => `trade ${id} in the ledger was never told to a bot`);
  return [...lost, ...unseen];
}

async function balancesAgree(sql: Sql, bots: readonly BotTrader[], markets: readonly RunMarket[]): Promise<string[]> {
  const assets = [COLLATERAL, ...markets.flatMap((m) => m.tokens)];
  const rows = await sql<{ address: string; asset: string; amount: string }[]>`
    SELECT address, asset, amount::text AS amount FROM balances
     WHERE address = ANY(${bots.map((b) => b.address.toLowerCase())}) AND asset = ANY(${assets})`;
  const ledger = new Map(rows.map((r) => [`${r.address} ${r.asset}`, Number(r.amount)]));
  const problems: string[] = [];
  for (const bot of bots) {
    for (const asset of assets) {
      const believed = bot.belief.balance(asset);
      const held = ledger.get(`${bot.address.toLowerCase()} ${asset}`) ?? 0;
      const query =
        asset === COLLATERAL ? 'asset_type=COLLATERAL' : `asset_type=CONDITIONAL&token_id=${encodeURIComponent(asset)}`;
      const answer = await bot.authed('GET', `/balance-allowance?${query}`, 'read');
      const exchange = answer?.status === 200 ? Number((answer.body as { balance: string }).balance) : NaN;
      if (believed !== held || held !== exchange)
        problems.push(`${bot.name} ${asset}: believes ${believed}, ledger ${held}, exchange ${exchange}`);
    }
  }
  return problems;
}

/** Orders and cancels whose outcome the bots could not settle: each is a disagreement at the end. */
function nothingInDoubt(bots: readonly BotTrader[]): string[] {
  return bots.flatMap((bot) => [
    ...[...bot.belief.inDoubt.keys()].map((id) => `${bot.name}: order ${id} still in doubt (never looked up)`),
    ...[...bot.belief.cancelsInDoubt].map((id) => `${bot.name}: cancel of ${id} still in doubt`),
  ]);
}

async function nothingLeftOpen(sql: Sql, bots: readonly BotTrader[]): Promise<string[]> {
  const rows = await sql<{ order_id: string; owner: string }[]>`
    SELECT order_id, owner FROM orders WHERE status = 'live' AND owner = ANY(${bots.map((b) => b.address.toLowerCase())})`;
  return rows.map((r) => `order ${r.order_id} of ${r.owner} is still live`);
}

export async function endOfRunChecks(
  sql: Sql,
  bots: readonly BotTrader[],
  markets: readonly RunMarket[],
  reconciler: Reconciler,
): Promise<CheckResult[]> {
  const doubts = nothingInDoubt(bots);
  const fills = await settleBeliefs(bots, reconciler);
  const takerTrades = bots.reduce((sum, bot) => sum + bot.belief.takerTrades.size, 0);
  const checks = [
    result('every answer of unknown outcome settled by a look-up', doubts, 'none left in doubt'),
    result('every fill a bot saw is in the ledger, as it saw it', fills, 'all orders agree'),
    result(
      'the ledger has exactly the trades the bots took',
      await tradesAgree(sql, bots, markets),
      `${takerTrades} trades, each in both`,
    ),
    result(
      "every bot's balance: what it believes = ledger = exchange",
      await balancesAgree(sql, bots, markets),
      `${bots.length} bots × ${1 + 2 * markets.length} assets agree`,
    ),
    result('no bot order is left open after stop', await nothingLeftOpen(sql, bots), 'none live'),
    result('ledger invariants (conservation, balances = entries)', await checkLedger(sql), 'checkLedger: none broken'),
  ];
  const disagreements = [...reconciler.disagreements].map(([kind, count]) => `${count}× ${kind}`);
  checks.push(
    result(
      'reconciler: the exchange agreed with every bot while it ran',
      disagreements,
      `${reconciler.checks} listings compared, no disagreement`,
    ),
  );
  return checks;
}

// The ledger's invariants (docs/design/money.md) checked in SQL over the whole database; returns one
// line per violation, empty when the ledger is sound. Run it when no batch is in flight: a
// withdrawal of trade proceeds may briefly commit before the trade does.

import type { Sql } from '@pmx/db';

const SHOWN = 20;

async function balancesEqualEntries(sql: Sql): Promise<string[]> {
  const rows = await sql<{ address: string; asset: string; balance: string; entries: string }[]>`
    SELECT coalesce(b.address, e.address) AS address, coalesce(b.asset, e.asset) AS asset,
           coalesce(b.amount, 0)::text AS balance, coalesce(e.total, 0)::text AS entries
      FROM balances b
      FULL JOIN (SELECT address, asset, sum(delta) AS total FROM ledger_entries GROUP BY address, asset) e
        ON e.address = b.address AND e.asset = b.asset
     WHERE coalesce(b.amount, 0) <> coalesce(e.total, 0)
     LIMIT ${SHOWN}`;
  return rows.map(
    (r) => `balance of ${r.address} in ${r.asset} is ${r.balance} but its ledger entries sum to ${r.entries}`,
  );
}

async function negativeBalances(sql: Sql): Promise<string[]> {
  const rows = await sql<{ address: string; asset: string; amount: string }[]>`
    SELECT address, asset, amount::text AS amount FROM balances WHERE amount < 0 LIMIT ${SHOWN}`;
  return rows.map((r) => `${r.address} holds ${r.amount} of ${r.asset}`);
}

async function transfersRecorded(sql: Sql): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT t.id FROM operator_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id WHERE e.id IS NULL LIMIT ${SHOWN}`;
  return rows.map((r) => `operator transfer ${r.id} has no ledger entry`);
}

/** Collateral held plus collateral locked in markets equals deposits minus withdrawals. */
async function collateralConserved(sql: Sql): Promise<string[]> {
  const [row] = await sql<{ held: string; locked: string; supplied: string }[]>`
    SELECT (SELECT coalesce(sum(amount), 0) FROM balances WHERE asset = 'collateral')::text AS held,
           (SELECT coalesce(sum(locked), 0) FROM market_collateral)::text AS locked,
           (SELECT coalesce(sum(amount), 0) FROM operator_transfers WHERE asset = 'collateral')::text AS supplied`;
  const { held, locked, supplied } = row!;
  return BigInt(held) + BigInt(locked) === BigInt(supplied)
    ? []
    : [
        `collateral held ${held} + locked ${locked} = ${BigInt(held) + BigInt(locked)}, but deposits − withdrawals = ${supplied}`,
      ];
}

/**
 * Each token's supply equals its market's pairs still out (minted − merged, by trades, splits and
 * merges) less what redemptions burnt of it, plus the tokens deposited from outside; and the
 * collateral locked is those pairs less what redemptions paid out.
 */
async function tokensConserved(sql: Sql): Promise<string[]> {
  const rows = await sql<{ market: string; token: string; supply: string; expected: string }[]>`
    SELECT m.condition_id AS market, t.token, coalesce(s.supply, 0)::text AS supply,
           (coalesce(c.minted - c.merged - t.burnt, 0) + coalesce(d.deposited, 0))::text AS expected
      FROM markets m
      LEFT JOIN market_collateral c ON c.condition_id = m.condition_id
     CROSS JOIN LATERAL (VALUES (m.token0, c.burnt0), (m.token1, c.burnt1)) AS t(token, burnt)
      LEFT JOIN (SELECT asset, sum(amount) AS supply FROM balances GROUP BY asset) s ON s.asset = t.token
      LEFT JOIN (SELECT asset, sum(amount) AS deposited FROM operator_transfers GROUP BY asset) d ON d.asset = t.token
     WHERE coalesce(s.supply, 0) <> coalesce(c.minted - c.merged - t.burnt, 0) + coalesce(d.deposited, 0)
     LIMIT ${SHOWN}`;
  return rows.map(
    (r) => `token ${r.token} of market ${r.market}: supply ${r.supply}, expected locked + deposited = ${r.expected}`,
  );
}

/**
 * Only merging tokens deposited from outside (or, once the market resolved, redeeming them at its
 * payouts) may release more collateral than the market's mints locked; and what it locked is
 * always its pairs less what redemptions paid.
 */
async function lockedBacked(sql: Sql): Promise<string[]> {
  const rows = await sql<{ market: string; locked: string }[]>`
    SELECT c.condition_id AS market, c.locked::text AS locked
      FROM market_collateral c JOIN markets m ON m.condition_id = c.condition_id
     CROSS JOIN LATERAL (SELECT (SELECT coalesce(sum(amount), 0) FROM operator_transfers WHERE asset = m.token0) AS s0,
                                (SELECT coalesce(sum(amount), 0) FROM operator_transfers WHERE asset = m.token1) AS s1) d
     WHERE c.locked <> c.minted - c.merged - c.paid_out
        OR c.locked < -greatest(least(d.s0, d.s1),
             coalesce(floor((greatest(d.s0, 0) * m.payouts[1] + greatest(d.s1, 0) * m.payouts[2]) / 1000000), 0))
     LIMIT ${SHOWN}`;
  return rows.map(
    (r) => `market ${r.market} has ${r.locked} collateral locked, more released than minted or deposited`,
  );
}

async function positionsMatchBalances(sql: Sql): Promise<string[]> {
  const rows = await sql<{ address: string; asset: string; size: string; balance: string }[]>`
    SELECT coalesce(p.address, b.address) AS address, coalesce(p.asset, b.asset) AS asset,
           coalesce(p.size, 0)::text AS size, coalesce(b.amount, 0)::text AS balance
      FROM positions p
      FULL JOIN (SELECT address, asset, amount FROM balances WHERE asset <> 'collateral') b
        ON b.address = p.address AND b.asset = p.asset
     WHERE coalesce(p.size, 0) <> coalesce(b.amount, 0)
     LIMIT ${SHOWN}`;
  return rows.map((r) => `position of ${r.address} in ${r.asset} is ${r.size} but the balance is ${r.balance}`);
}

async function ordersMatchTrades(sql: Sql): Promise<string[]> {
  const rows = await sql<{ order_id: string; matched: string; traded: string; status: string; size: string }[]>`
    SELECT o.order_id, o.matched::text AS matched, (coalesce(t.size, 0) + coalesce(f.size, 0))::text AS traded, o.status, o.size::text AS size
      FROM orders o
      LEFT JOIN (SELECT taker_order_id AS id, sum(size) AS size FROM trades GROUP BY taker_order_id) t ON t.id = o.order_id
      LEFT JOIN (SELECT maker_order_id AS id, sum(size) AS size FROM trade_fills GROUP BY maker_order_id) f ON f.id = o.order_id
     WHERE o.matched <> coalesce(t.size, 0) + coalesce(f.size, 0)
        OR (o.status = 'matched') <> (o.matched = o.size)
     LIMIT ${SHOWN}`;
  return rows.map(
    (r) =>
      `order ${r.order_id} (${r.status}, size ${r.size}) has matched ${r.matched} but its trades sum to ${r.traded}`,
  );
}

/**
 * The live orders of an address never need more than it holds: a BUY its remaining size at its
 * limit in collateral, a SELL its remaining tokens. A ledger that breaks this would bring back
 * orders recovery must cancel (reason "uncovered").
 */
async function openOrdersCovered(sql: Sql): Promise<string[]> {
  const rows = await sql<{ address: string; asset: string; needed: string; balance: string }[]>`
    SELECT n.address, n.asset, ceil(n.needed)::text AS needed, coalesce(b.amount, 0)::text AS balance
      FROM (SELECT owner AS address, CASE WHEN side = 'BUY' THEN 'collateral' ELSE asset_id END AS asset,
                   sum(CASE WHEN side = 'BUY' THEN (size - matched) * price ELSE size - matched END) AS needed
              FROM orders WHERE status = 'live' GROUP BY 1, 2) n
      LEFT JOIN balances b ON b.address = n.address AND b.asset = n.asset
     WHERE n.needed > coalesce(b.amount, 0)
     LIMIT ${SHOWN}`;
  return rows.map((r) => `open orders of ${r.address} need ${r.needed} of ${r.asset} but the balance is ${r.balance}`);
}

/** A closed or resolved market has no live orders (its close cancelled them); its flags follow its state. */
async function closedMarketsQuiet(sql: Sql): Promise<string[]> {
  const rows = await sql<{ market: string; state: string; live: number }[]>`
    SELECT m.condition_id AS market, m.state,
           (SELECT count(*)::int FROM orders o WHERE o.market = m.condition_id AND o.status = 'live') AS live
      FROM markets m
     WHERE m.state <> 'open'
       AND (m.state IN ('closed', 'resolved') AND EXISTS (SELECT 1 FROM orders o WHERE o.market = m.condition_id AND o.status = 'live')
            OR m.closed <> (m.state IN ('closed', 'resolved')) OR m.accepting_orders <> (m.state = 'open'))
     LIMIT ${SHOWN}`;
  return rows.map((r) =>
    r.live > 0 && r.state !== 'paused'
      ? `market ${r.market} is ${r.state} but has ${r.live} live orders`
      : `market ${r.market} is ${r.state} but its closed / accepting_orders flags say otherwise`,
  );
}

/** builder_trades holds one row per builder and trade in which an order carrying it took or rested, no other. */
async function builderTradesRecorded(sql: Sql): Promise<string[]> {
  const rows = await sql<{ builder: string; trade_id: string; missing: boolean }[]>`
    WITH expected AS (
      SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq FROM trades t JOIN orders o ON o.order_id = t.taker_order_id WHERE o.builder IS NOT NULL
      UNION
      SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq FROM trade_fills f JOIN trades t ON t.trade_id = f.trade_id
        JOIN orders o ON o.order_id = f.maker_order_id WHERE o.builder IS NOT NULL)
    (SELECT builder, trade_id, true AS missing FROM (SELECT * FROM expected EXCEPT SELECT builder, trade_id, match_time, shard, seq FROM builder_trades) m)
    UNION ALL
    (SELECT builder, trade_id, false AS missing FROM (SELECT builder, trade_id, match_time, shard, seq FROM builder_trades EXCEPT SELECT * FROM expected) x)
    LIMIT ${SHOWN}`;
  return rows.map(
    (r) =>
      `builder_trades ${r.missing ? 'lacks a' : 'has a stray'} row for builder ${r.builder} and trade ${r.trade_id}`,
  );
}

/** Every violation of the ledger's invariants; [] when balances, positions, orders and supply agree. */
export async function checkLedger(sql: Sql): Promise<string[]> {
  const checks = [
    balancesEqualEntries,
    negativeBalances,
    transfersRecorded,
    collateralConserved,
    tokensConserved,
    lockedBacked,
    positionsMatchBalances,
    ordersMatchTrades,
    openOrdersCovered,
    closedMarketsQuiet,
    builderTradesRecorded,
  ];
  return (await Promise.all(checks.map((check) => check(sql)))).flat();
}

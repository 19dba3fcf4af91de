-- A position's running totals only grow with volume: total_bought adds every buy, closed_cost
-- every sale's cost, realized_pnl every result. As bigints, ≈ 9,223 round trips of the largest
-- order (10^15 base units) between two traders overflowed total_bought, and the "out of range"
-- error (not transient) stopped that shard's ledger for good. Like balances, they are now
-- numeric(78, 0); size and cost_basis stay bigint (bounded by the supply, below 2^53).
ALTER TABLE positions
  ALTER COLUMN realized_pnl TYPE numeric(78, 0),
  ALTER COLUMN closed_cost TYPE numeric(78, 0),
  ALTER COLUMN total_bought TYPE numeric(78, 0);

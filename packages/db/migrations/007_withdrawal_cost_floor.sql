-- A token withdrawal takes its share of the position's cost basis with it, rounded down to a base
-- unit, as a sale does (services/ingest/src/ledger/positions.ts). The trigger of 003 divided in
-- numeric and let the assignment to bigint round to nearest, so a withdrawal could take one base
-- unit of cost more than the sale path would. Only the rounding changes.
CREATE OR REPLACE FUNCTION ledger_record_operator_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m record;
  held bigint;
  cost bigint;
BEGIN
  INSERT INTO ledger_entries (address, asset, delta, cause, transfer_id, created_at)
  VALUES (NEW.address, NEW.asset, NEW.amount, CASE WHEN NEW.amount >= 0 THEN 'deposit' ELSE 'withdrawal' END, NEW.id, NEW.created_at);
  INSERT INTO balances AS b (address, asset, amount) VALUES (NEW.address, NEW.asset, NEW.amount)
  ON CONFLICT (address, asset) DO UPDATE SET amount = b.amount + EXCLUDED.amount, updated_at = now();
  IF NEW.asset <> 'collateral' THEN
    SELECT condition_id, CASE WHEN token0 = NEW.asset THEN 0 ELSE 1 END AS token INTO m
      FROM markets WHERE token0 = NEW.asset OR token1 = NEW.asset;
    INSERT INTO positions AS p (address, asset, market, token) VALUES (NEW.address, NEW.asset, m.condition_id, m.token)
    ON CONFLICT (address, asset) DO NOTHING;
    SELECT p.size, p.cost_basis INTO held, cost FROM positions p WHERE p.address = NEW.address AND p.asset = NEW.asset FOR UPDATE;
    IF NEW.amount >= 0 THEN
      UPDATE positions SET size = size + NEW.amount, updated_at = now() WHERE address = NEW.address AND asset = NEW.asset;
    ELSE
      -- A withdrawal takes its share of the cost basis with it; nothing is realized.
      UPDATE positions
         SET cost_basis = cost_basis - CASE WHEN held > 0 THEN floor((cost * least(-NEW.amount, held)) / held)::bigint ELSE 0 END,
             size = size + NEW.amount,
             updated_at = now()
       WHERE address = NEW.address AND asset = NEW.asset;
    END IF;
  END IF;
  RETURN NULL;
END $$;

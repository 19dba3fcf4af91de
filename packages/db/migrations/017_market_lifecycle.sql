-- A market's life (docs/guides/market-lifecycle.md): open → paused ⇄ open → closed → resolved, and
-- the custody movements beside trades (split, merge, redeem). Ingest writes every column here from
-- the shard's events, in the batch that carries them; nothing else updates them.
--
-- markets.state      'open' | 'paused' | 'closed' | 'resolved'
-- markets.payouts    NULL until resolved; collateral base units paid per whole token (10^6 base
--                    units) of token0 and token1: {1000000,0}, {0,1000000} or {500000,500000}
-- markets.closed_at, markets.resolved_at   when the shard closed and resolved it (engine clock)
-- markets.closed and accepting_orders follow state (closed: closed or resolved; accepting: open).
ALTER TABLE markets
  ADD COLUMN state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'paused', 'closed', 'resolved')),
  ADD COLUMN payouts bigint[] CHECK (payouts IS NULL OR cardinality(payouts) = 2),
  ADD COLUMN closed_at timestamptz,
  ADD COLUMN resolved_at timestamptz,
  ADD CONSTRAINT markets_resolved_payouts CHECK ((state = 'resolved') = (payouts IS NOT NULL));

-- Markets written before this migration with the flags set (cancel-only, closed) keep that meaning.
UPDATE markets SET state = CASE WHEN closed THEN 'closed' ELSE 'paused' END WHERE closed OR NOT accepting_orders;

-- Pairs outstanding in a market are minted − merged (mint trades and splits, merge trades and
-- merges). Redemptions burn tokens (burnt0, burnt1) and pay collateral out of the market
-- (paid_out), so `locked` = minted − merged − paid_out and a token's supply is
-- minted − merged − burnt + what operators deposited of it (checkLedger).
ALTER TABLE market_collateral
  ADD COLUMN paid_out numeric(78, 0) NOT NULL DEFAULT 0,
  ADD COLUMN burnt0 numeric(78, 0) NOT NULL DEFAULT 0,
  ADD COLUMN burnt1 numeric(78, 0) NOT NULL DEFAULT 0;

-- The catalog market linked to an order-book market follows its close and resolution without an
-- operator call: it is marked closed (at the order book's time) and touched, so the catalog's
-- projection (NOTIFY pmx_catalog) re-reads it with the new outcome prices.
CREATE FUNCTION markets_lifecycle_to_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_markets
     SET closed = closed OR NEW.state IN ('closed', 'resolved'),
         closed_time = CASE WHEN NEW.state IN ('closed', 'resolved') THEN coalesce(closed_time, NEW.closed_at, now()) ELSE closed_time END,
         updated_at = now()
   WHERE condition_id = NEW.condition_id;
  RETURN NULL;
END $$;

CREATE TRIGGER markets_lifecycle_to_catalog AFTER UPDATE OF state, payouts ON markets
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.payouts IS DISTINCT FROM NEW.payouts)
  EXECUTE FUNCTION markets_lifecycle_to_catalog();

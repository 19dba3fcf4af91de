-- What the account-data service (services/data) needs to follow the ledger without a query per
-- request: every change of a position, and of a market, reaches it as a notification naming what
-- moved, so it re-reads just those rows.

-- A pmx_ledger notification "<shard>:<seq>" says the shard's batches up to seq are committed; the
-- token entries of (last seen seq, seq] name the positions those batches moved (trades, mints,
-- merges and any other event a shard orders). Entries are only inserted, so the index keeps
-- positions' updates heap-only.
CREATE INDEX ledger_entries_shard_seq ON ledger_entries (shard, seq);

-- An operator transfer of an outcome token moves a position outside any shard batch (the trigger
-- of 003 writes it): channel pmx_positions, payload "<address>:<token id>".
CREATE FUNCTION account_data_notify_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pmx_positions', NEW.address || ':' || NEW.asset);
  RETURN NULL;
END
$$;
CREATE TRIGGER operator_transfers_account_data AFTER INSERT ON operator_transfers
  FOR EACH ROW WHEN (NEW.asset <> 'collateral') EXECUTE FUNCTION account_data_notify_transfer();

-- A market created or changed (its state and payouts once the lifecycle resolves it): channel
-- pmx_markets, payload its condition id. Markets change rarely; a bulk load sends one per row.
CREATE FUNCTION account_data_notify_market() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pmx_markets', NEW.condition_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER markets_account_data AFTER INSERT OR UPDATE ON markets
  FOR EACH ROW EXECUTE FUNCTION account_data_notify_market();

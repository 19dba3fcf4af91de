-- A token id names one outcome of one market. markets.token0 and token1 were each UNIQUE, but a
-- token could still be token1 of one market and token0 of another: two creations racing past the
-- front end's in-memory check both went in, and orders on that token then went to whichever
-- market was loaded last. Every token id now also has a row here, in the same transaction as its
-- market, so a second market with it fails (unique_violation), whatever column it is in.
CREATE TABLE market_tokens (
  token_id     text PRIMARY KEY,
  condition_id text NOT NULL REFERENCES markets (condition_id)
);

-- Existing markets (ON CONFLICT: a token two old markets already share stays with the older one).
INSERT INTO market_tokens (token_id, condition_id)
SELECT token_id, condition_id FROM (
  SELECT token0 AS token_id, condition_id, created_at FROM markets
  UNION ALL
  SELECT token1, condition_id, created_at FROM markets
) AS t ORDER BY created_at, condition_id
ON CONFLICT DO NOTHING;

CREATE FUNCTION markets_claim_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_tokens (token_id, condition_id) VALUES (NEW.token0, NEW.condition_id), (NEW.token1, NEW.condition_id);
  RETURN NEW;
END;
$$;

CREATE TRIGGER markets_claim_tokens AFTER INSERT ON markets FOR EACH ROW EXECUTE FUNCTION markets_claim_tokens();

-- Markets: one row per binary market (condition id) with its two outcome tokens.
-- min_order_size is in base units (6 decimals); tick_size is the decimal string the API shows.
CREATE TABLE markets (
  condition_id   text PRIMARY KEY,
  question       text NOT NULL,
  token0         text NOT NULL UNIQUE,
  token1         text NOT NULL UNIQUE,
  outcome0       text NOT NULL,
  outcome1       text NOT NULL,
  tick_size      text NOT NULL,
  min_order_size bigint NOT NULL,
  neg_risk       boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now()
);

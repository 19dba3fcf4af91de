-- The ledger written by services/ingest (docs/reference/ledger.md): orders, trades and their maker fills,
-- balances (the truth) with the ledger entries they are the sum of, positions, collateral locked
-- per market, midpoint changes and each shard's last applied event sequence number.
-- Addresses are lower-case; amounts are base units (6 decimals); prices are ticks of the order's
-- own token with the decimal beside them; times come from the engine's clock (the event `at`).
-- The hot tables (orders, trades, trade_fills, ledger_entries) have no foreign keys and only the
-- indexes reads need: ingest is their only writer, and checkLedger verifies what keys would.
-- Rows updated on every batch (orders, balances, positions) leave free space in their pages and
-- index few of the columns those updates change, so that most updates stay heap-only (HOT).

-- One row per order the engine accepted. `matched` and `status` follow its trades, cancels and
-- expiry: live → matched | cancelled | expired | unmatched (an FAK's unfilled remainder).
CREATE TABLE orders (
  order_id     text PRIMARY KEY,
  market       text NOT NULL,
  token        smallint NOT NULL CHECK (token IN (0, 1)),
  asset_id     text NOT NULL,
  side         text NOT NULL CHECK (side IN ('BUY', 'SELL')),
  order_type   text NOT NULL CHECK (order_type IN ('GTC', 'GTD', 'FOK', 'FAK')),
  price_ticks  integer NOT NULL,
  price        numeric(10, 4) NOT NULL,
  size         bigint NOT NULL CHECK (size > 0),
  matched      bigint NOT NULL DEFAULT 0 CHECK (matched >= 0 AND matched <= size),
  status       text NOT NULL CHECK (status IN ('live', 'matched', 'cancelled', 'expired', 'unmatched')),
  -- user | self-trade | unfilled | expired, once the order closed without filling.
  close_reason text,
  -- The maker address whose balance backs the order.
  owner        text NOT NULL,
  -- The API key that placed it, and the signed order's builder (lower-case bytes32; null: none).
  owner_key    text,
  builder      text,
  post_only    boolean NOT NULL DEFAULT false,
  expires_at   timestamptz,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  shard        integer NOT NULL,
  accepted_seq bigint NOT NULL
) WITH (fillfactor = 85);
CREATE INDEX orders_owner ON orders (owner, created_at);
-- Recovery reads a shard's open orders in their original sequence.
CREATE INDEX orders_live ON orders (shard, accepted_seq) WHERE status = 'live';
CREATE INDEX orders_builder ON orders (builder) WHERE builder IS NOT NULL;

-- One row per taker order's match (the engine's `trade` event), in the taker's terms.
CREATE TABLE trades (
  trade_id         text PRIMARY KEY,
  shard            integer NOT NULL,
  seq              bigint NOT NULL,
  market           text NOT NULL,
  taker_token      smallint NOT NULL CHECK (taker_token IN (0, 1)),
  asset_id         text NOT NULL,
  taker_order_id   text NOT NULL,
  taker_address    text NOT NULL,
  side             text NOT NULL CHECK (side IN ('BUY', 'SELL')),
  size             bigint NOT NULL,
  -- Collateral that changed hands at the taker's prices, and price = notional / size (the
  -- taker's average when its fills hit several levels; exact to 6 decimals).
  notional         bigint NOT NULL,
  price            numeric(12, 6) NOT NULL,
  -- Ticks of the taker's token when every fill had one price, else the last (worst) fill's.
  price_ticks      integer NOT NULL,
  status           text NOT NULL DEFAULT 'CONFIRMED' CHECK (status IN ('MATCHED', 'CONFIRMED')),
  match_time       timestamptz NOT NULL,
  confirmed_at     timestamptz NOT NULL DEFAULT now(),
  transaction_hash text NOT NULL,
  bucket_index     integer NOT NULL DEFAULT 0,
  fee_rate_bps     integer NOT NULL DEFAULT 0,
  UNIQUE (shard, seq)
);
CREATE INDEX trades_taker ON trades (taker_address, match_time);

-- Each resting order a trade filled, in the maker's terms.
CREATE TABLE trade_fills (
  trade_id          text NOT NULL,
  idx               smallint NOT NULL,
  maker_order_id    text NOT NULL,
  maker_address     text NOT NULL,
  maker_token       smallint NOT NULL CHECK (maker_token IN (0, 1)),
  maker_asset_id    text NOT NULL,
  maker_side        text NOT NULL CHECK (maker_side IN ('BUY', 'SELL')),
  size              bigint NOT NULL,
  maker_price_ticks integer NOT NULL,
  maker_price       numeric(10, 4) NOT NULL,
  taker_price_ticks integer NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('transfer', 'mint', 'merge')),
  fee_rate_bps      integer NOT NULL DEFAULT 0,
  PRIMARY KEY (trade_id, idx)
);
CREATE INDEX trade_fills_maker ON trade_fills (maker_address, trade_id);

-- Every movement of collateral ('collateral') or an outcome token (its token id), with its cause.
CREATE TABLE ledger_entries (
  id          bigserial PRIMARY KEY,
  address     text NOT NULL,
  asset       text NOT NULL,
  delta       numeric(78, 0) NOT NULL,
  cause       text NOT NULL CHECK (cause IN ('deposit', 'withdrawal', 'trade', 'mint', 'merge', 'split', 'redeem')),
  trade_id    text,
  transfer_id bigint,
  shard       integer,
  seq         bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_holding ON ledger_entries (address, asset);
CREATE UNIQUE INDEX ledger_entries_transfer ON ledger_entries (transfer_id) WHERE transfer_id IS NOT NULL;

-- The truth: always the sum of the holding's ledger entries (checkLedger verifies it). May dip
-- below zero for a moment when a withdrawal of trade proceeds commits before that trade does.
CREATE TABLE balances (
  address    text NOT NULL,
  asset      text NOT NULL,
  amount     numeric(78, 0) NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (address, asset)
) WITH (fillfactor = 80);

-- Per address and outcome token, at average cost: size (= the token balance), the cost basis
-- of what is held and the realized PnL of what was sold or merged, in collateral base units.
CREATE TABLE positions (
  address      text NOT NULL,
  asset        text NOT NULL,
  market       text,
  token        smallint,
  size         bigint NOT NULL DEFAULT 0,
  cost_basis   bigint NOT NULL DEFAULT 0,
  realized_pnl bigint NOT NULL DEFAULT 0,
  -- Cost basis of the shares closed so far (for percentRealizedPnl) and shares ever bought.
  closed_cost  bigint NOT NULL DEFAULT 0,
  total_bought bigint NOT NULL DEFAULT 0,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (address, asset)
) WITH (fillfactor = 80);

-- Collateral locked in minted pairs (mints − merges); negative only while merging tokens that
-- were deposited from outside.
CREATE TABLE market_collateral (
  condition_id text PRIMARY KEY REFERENCES markets (condition_id),
  locked       numeric(78, 0) NOT NULL DEFAULT 0,
  minted       numeric(78, 0) NOT NULL DEFAULT 0,
  merged       numeric(78, 0) NOT NULL DEFAULT 0,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- The best bid and ask (first token's ticks) after each batch that changed a market's midpoint:
-- the durable source of the midpoint history that is copied into ClickHouse.
CREATE TABLE midpoint_changes (
  shard     integer NOT NULL,
  seq       bigint NOT NULL,
  market    text NOT NULL,
  at        timestamptz NOT NULL,
  bid_ticks integer NOT NULL,
  ask_ticks integer NOT NULL,
  PRIMARY KEY (shard, seq, market)
);
CREATE INDEX midpoint_changes_market ON midpoint_changes (market, shard, seq);

-- Highest event sequence number applied per shard; advanced in the batch's own transaction.
CREATE TABLE shard_offsets (
  shard      integer PRIMARY KEY,
  last_seq   bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Operator deposits and withdrawals enter the ledger in the transaction that records them: the
-- front end only inserts into operator_transfers, this trigger writes the entry, the balance
-- and, for an outcome token, the position (deposited tokens carry no cost basis).
CREATE FUNCTION ledger_record_operator_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
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
         SET cost_basis = cost_basis - CASE WHEN held > 0 THEN (cost * least(-NEW.amount, held)) / held ELSE 0 END,
             size = size + NEW.amount,
             updated_at = now()
       WHERE address = NEW.address AND asset = NEW.asset;
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER operator_transfers_ledger AFTER INSERT ON operator_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_record_operator_transfer();

-- Transfers recorded before this migration enter the ledger the same way.
INSERT INTO ledger_entries (address, asset, delta, cause, transfer_id, created_at)
SELECT address, asset, amount, CASE WHEN amount >= 0 THEN 'deposit' ELSE 'withdrawal' END, id, created_at
  FROM operator_transfers ORDER BY id;
INSERT INTO balances (address, asset, amount)
SELECT address, asset, sum(amount) FROM operator_transfers GROUP BY address, asset;
INSERT INTO positions (address, asset, market, token, size)
SELECT t.address, t.asset, m.condition_id, CASE WHEN m.token0 = t.asset THEN 0 ELSE 1 END, sum(t.amount)
  FROM operator_transfers t LEFT JOIN markets m ON t.asset IN (m.token0, m.token1)
 WHERE t.asset <> 'collateral'
 GROUP BY t.address, t.asset, m.condition_id, m.token0;

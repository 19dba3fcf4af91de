-- Trading front end: order-book market fields, API keys, proxy wallets and operator transfers.
-- Addresses are stored lower-case; amounts are base units (6 decimals).
ALTER TABLE markets
  ADD COLUMN market_id bigserial UNIQUE,
  ADD COLUMN question_id text NOT NULL DEFAULT '',
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN market_slug text NOT NULL DEFAULT '',
  ADD COLUMN end_date_iso timestamptz,
  ADD COLUMN game_start_time timestamptz,
  ADD COLUMN icon text NOT NULL DEFAULT '',
  ADD COLUMN image text NOT NULL DEFAULT '',
  ADD COLUMN active boolean NOT NULL DEFAULT true,
  ADD COLUMN closed boolean NOT NULL DEFAULT false,
  ADD COLUMN archived boolean NOT NULL DEFAULT false,
  ADD COLUMN accepting_orders boolean NOT NULL DEFAULT true,
  ADD COLUMN maker_base_fee integer NOT NULL DEFAULT 0,
  ADD COLUMN taker_base_fee integer NOT NULL DEFAULT 0,
  ADD COLUMN neg_risk_market_id text NOT NULL DEFAULT '',
  ADD COLUMN neg_risk_request_id text NOT NULL DEFAULT '',
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}';

CREATE TABLE api_keys (
  api_key    uuid PRIMARY KEY,
  address    text NOT NULL,
  nonce      numeric(78, 0) NOT NULL,
  secret     text NOT NULL,
  passphrase text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (address, nonce)
);

-- Proxy wallets (signature types 1 and 2) registered by the operator: the proxy is the maker,
-- its owner signs.
CREATE TABLE proxy_wallets (
  proxy          text PRIMARY KEY,
  signer         text NOT NULL,
  signature_type smallint NOT NULL CHECK (signature_type IN (1, 2)),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX proxy_wallets_signer ON proxy_wallets (signer);

-- Operator deposits (positive) and withdrawals (negative) of collateral or outcome tokens.
CREATE TABLE operator_transfers (
  id         bigserial PRIMARY KEY,
  address    text NOT NULL,
  asset      text NOT NULL,
  amount     numeric(78, 0) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_transfers_address ON operator_transfers (address);

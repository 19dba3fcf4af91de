-- Who signed for a proxy wallet when. GET /data/trades shows a proxy's trades to its signer; with
-- only the signer of now, a proxy moved to another signer would take its past trades along: the
-- old signer's list would lose them and the new signer's show trades it never placed. A move
-- closes the old signer's orders for the proxy before it happens, so its
-- moment divides the proxy's trades exactly: each signer is shown those matched while it signed.
-- `since` is when the current signer took the proxy ('-infinity': from its registration on).
ALTER TABLE proxy_wallets ADD COLUMN since timestamptz NOT NULL DEFAULT '-infinity';
CREATE TABLE proxy_wallet_history (
  proxy  text NOT NULL,
  signer text NOT NULL,
  since  timestamptz NOT NULL,
  until  timestamptz NOT NULL,
  PRIMARY KEY (proxy, until)
);
CREATE INDEX proxy_wallet_history_signer ON proxy_wallet_history (signer);

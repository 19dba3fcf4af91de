-- Who signed for a proxy wallet when. GET /data/trades shows a proxy's trades to its signer; it
-- took the signer of now, so a proxy moved to another signer took its past trades along: the old
-- signer's list lost them and the new signer's showed trades it never placed (found by a review,
-- 2026-11-28). A move closes the old signer's orders for the proxy before it happens, so its
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

-- GET /builder/trades pages a builder's trades newest first. Its cost grew with the builder's whole
-- history: every trade of every order carrying the builder was joined and sorted before the page
-- was cut (≈ 0.65 s a page at 100,000 trades). Ingest now keeps one row per builder and trade (the
-- builder's order took or rested), in the trades' order, so a page reads only as many rows as its
-- offset and length (as GET /data/trades does since 014).
CREATE TABLE builder_trades (
  builder    text NOT NULL,
  trade_id   text NOT NULL,
  match_time timestamptz NOT NULL,
  shard      integer NOT NULL,
  seq        bigint NOT NULL,
  PRIMARY KEY (builder, trade_id)
);
CREATE INDEX builder_trades_time ON builder_trades (builder, match_time DESC, shard DESC, seq DESC);
INSERT INTO builder_trades (builder, trade_id, match_time, shard, seq)
SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq
  FROM trades t JOIN orders o ON o.order_id = t.taker_order_id
 WHERE o.builder IS NOT NULL
UNION
SELECT o.builder, t.trade_id, t.match_time, t.shard, t.seq
  FROM trade_fills f JOIN trades t ON t.trade_id = f.trade_id JOIN orders o ON o.order_id = f.maker_order_id
 WHERE o.builder IS NOT NULL;

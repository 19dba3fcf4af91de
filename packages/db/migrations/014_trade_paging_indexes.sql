-- GET /data/trades pages a caller's trades newest first. Its cost grew with the caller's whole
-- history (every trade joined and sorted before the page was cut): a maker's fills now carry their
-- trade's order (match_time, shard, seq), and both sides have an index in that order, so a page
-- reads only as many rows as its offset and length.
ALTER TABLE trade_fills ADD COLUMN match_time timestamptz, ADD COLUMN shard integer, ADD COLUMN seq bigint;
UPDATE trade_fills f SET match_time = t.match_time, shard = t.shard, seq = t.seq FROM trades t WHERE t.trade_id = f.trade_id;
ALTER TABLE trade_fills ALTER COLUMN match_time SET NOT NULL, ALTER COLUMN shard SET NOT NULL, ALTER COLUMN seq SET NOT NULL;
CREATE INDEX trade_fills_maker_time ON trade_fills (maker_address, match_time DESC, shard DESC, seq DESC);
CREATE INDEX trades_taker_time ON trades (taker_address, match_time DESC, shard DESC, seq DESC);
DROP INDEX trades_taker;

-- GET /builder/trades joins trades on taker_order_id and trade_fills on maker_order_id to find a
-- builder's trades; neither was indexed, so every request scanned both tables whole (a public
-- endpoint whose cost grew with the ledger: 156 ms at 300k trades).
CREATE INDEX trades_taker_order_id ON trades (taker_order_id);
CREATE INDEX trade_fills_maker_order_id ON trade_fills (maker_order_id);

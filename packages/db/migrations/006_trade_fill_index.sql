-- A trade's fill number was a smallint: a taker sweeping more than 32,768 resting orders in one
-- trade (nothing in the engine caps the fills of a trade) made its batch fail with "out of range",
-- a permanent error, and so stopped that shard's ledger for good. An integer holds any count the
-- engine can produce.
ALTER TABLE trade_fills ALTER COLUMN idx TYPE integer;

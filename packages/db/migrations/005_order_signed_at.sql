-- The signed order's own timestamp (ms, as signed; NULL when it does not fit a safe integer or the
-- order predates this column). The trading front end answers "is this order id new?" from memory
-- for orders signed within its replay window, and after a restart reloads the ids of orders signed
-- since the window's start from here; older or far-future orders are looked up by order_id.
ALTER TABLE orders ADD COLUMN signed_at bigint;
CREATE INDEX orders_signed_at ON orders (signed_at) WHERE signed_at IS NOT NULL;
-- Orders without it (recorded before this migration) are reloaded by when they were accepted.
CREATE INDEX orders_unsigned_created_at ON orders (created_at) WHERE signed_at IS NULL;

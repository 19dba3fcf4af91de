-- GET /builder/trades asked without a builder code answers the caller's own: the codes its orders
-- carried (orders placed with its API keys). Only orders with a builder are indexed, and neither
-- column changes once written, so orders' updates stay heap-only.
CREATE INDEX orders_key_builder ON orders (owner_key, builder) WHERE builder IS NOT NULL;

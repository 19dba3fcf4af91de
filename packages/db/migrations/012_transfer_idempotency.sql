-- An operator transfer may carry the caller's idempotency key: a deposit or withdrawal retried
-- after a timeout whose first request had committed is then answered as the first was, not
-- applied twice.
ALTER TABLE operator_transfers ADD COLUMN idempotency_key text UNIQUE;

-- Which ledger this is. Derived stores kept outside Postgres (the price history in ClickHouse)
-- record the id they were copied from; one that holds another ledger's data (the database was
-- recreated, or pointed at another, while the history directory stayed) is rebuilt rather than
-- served. Before this, only history *ahead* of the ledger was recognised as another's.
CREATE TABLE ledger_identity (
  id         uuid PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  singleton  boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton)
);
INSERT INTO ledger_identity (id) VALUES (gen_random_uuid());

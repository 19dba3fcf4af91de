// Test and bench helpers (never used by ingest itself): real engine events as shard jobs, and
// markets and deposits in a test database.
export { EngineShard, type TestMarket, type PlaceSpec, type BatchOps } from './engine-shard.ts';
export { testMarket, insertMarket, deposit, TOKEN } from './ledger-fixtures.ts';

// Test-only surface of @pmx/clob (`@pmx/clob/testing`): a real front end per test file, and the
// shard routing cross-service tests need to aim at one shard.
export * from './clob-harness.ts';
export { shardOf } from '../shards/shard-set.ts';

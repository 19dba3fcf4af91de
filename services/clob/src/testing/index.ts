// Test-only surface of @pmx/clob (`@pmx/clob/testing`): a real front end per test file, the
// shard routing cross-service tests need to aim at one shard, and the operator's command line.
export * from './clob-harness.ts';
export { shardOf } from '../shards/shard-set.ts';
export { loadClobConfig, type ClobConfig } from '../config.ts';
export { startCoreProcess, type CoreProcess } from '../core/core-process.ts';
export { startGatewayProcess, type GatewayProcess } from '../gateway/gateway-process.ts';
export { runCli, type CliContext } from '../cli.ts';

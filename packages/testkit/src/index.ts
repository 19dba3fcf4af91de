// Public surface of @pmx/testkit, the helpers other packages' tests use to isolate themselves.
export { createTestDatabase, testDatabaseName, type TestDatabase } from './test-database.ts';
export { testRedisPrefix, cleanupRedisPrefix, type RedisKeyCleaner } from './redis-prefix.ts';
export { createTempDir, type TempDir } from './temp-dir.ts';
export { testkitConfig } from './config.ts';
export { sweepLeftovers, type Swept } from './sweep-leftovers.ts';
export {
  Trader,
  limit,
  readReply,
  CHAIN_ID,
  EXCHANGE,
  NEG_RISK_EXCHANGE,
  type Credentials,
  type OrderSpec,
  type Response,
} from './trader.ts';
export { cuttingRelay, relayTo, withCuttingLink, type CuttingRelay, type PgRelay } from './pg-relay.ts';
export { holdingRelay, type HoldingRelay } from './holding-relay.ts';
export { eventually } from './eventually.ts';
export { operatorCall } from './operator-call.ts';

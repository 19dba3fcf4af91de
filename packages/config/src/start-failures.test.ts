// A service that cannot start says why in one line for the usual causes, and in full otherwise.
import { describe, expect, it } from 'vitest';
import { ConfigError } from './env-readers.ts';
import { describeStartFailure, StartRefusal } from './start-failures.ts';

describe('describeStartFailure', () => {
  it('names the setting, the unreachable server or the missing set-up in one line', () => {
    expect(describeStartFailure(new ConfigError('PMX_CLOB_PORT', 'must be from 0 to 65535, got 99999'))).toBe(
      'config: PMX_CLOB_PORT must be from 0 to 65535, got 99999',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5499'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 5499,
    });
    expect(describeStartFailure(refused)).toBe(
      'cannot start: nothing answers at 127.0.0.1:5499 (ECONNREFUSED); is the server PMX_PG_URL, PMX_REDIS_URL or PMX_CLICKHOUSE_URL names there running and its address right? (infra/setup.sh starts Postgres and Redis)',
    );
    // By its default port, the server is named (a ClickHouse server is not blamed on Postgres).
    const clickhouse = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 8123,
    });
    expect(describeStartFailure(clickhouse)).toMatch(
      /^cannot start: nothing answers at 127\.0\.0\.1:8123 \(ECONNREFUSED\); is ClickHouse \(PMX_CLICKHOUSE_URL\) running/,
    );
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080'), {
      code: 'EADDRINUSE',
      address: '127.0.0.1',
      port: 8080,
    });
    expect(describeStartFailure(inUse)).toBe(
      'cannot start: the port at 127.0.0.1:8080 is in use: is this service already running? (its PMX_*_PORT setting picks another)',
    );
    const locked = new Error(
      'Code: 76. DB::ErrnoException: Cannot lock file /x/status. Another server instance in same directory is already running. (CANNOT_OPEN_FILE)',
    );
    expect(describeStartFailure(locked)).toBe(
      'cannot start: the embedded ClickHouse folder (PMX_CLICKHOUSE_PATH) is in use by another process: is this service already running?',
    );
    expect(describeStartFailure(new StartRefusal('shard 0 is owned by another clob process'))).toBe(
      'cannot start: shard 0 is owned by another clob process',
    );
    const unmigrated = Object.assign(new Error('relation "markets" does not exist'), { code: '42P01' });
    expect(describeStartFailure(unmigrated)).toMatch(
      /^cannot start: relation "markets" does not exist \(the database is not migrated: run `pnpm --filter @pmx\/db migrate`/,
    );
  });

  it('gives anything else whole, stack included: that is a bug to report', () => {
    const bug = new TypeError('x is not a function');
    expect(describeStartFailure(bug)).toBe(`cannot start: ${bug.stack}`);
  });
});

// A service that cannot start says why in one line for the usual causes, and in full otherwise.
import { describe, expect, it } from 'vitest';
import { ConfigError } from './env-readers.ts';
import { describeStartFailure } from './start-failures.ts';

describe('describeStartFailure', () => {
  it('names the setting, the unreachable server or the missing set-up in one line', () => {
    expect(describeStartFailure(new ConfigError('PMX_CLOB_PORT', 'must be from 0 to 65535, got 99999'))).toBe('config: PMX_CLOB_PORT must be from 0 to 65535, got 99999');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5499'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5499 });
    expect(describeStartFailure(refused)).toBe('cannot start: nothing answers at 127.0.0.1:5499 (ECONNREFUSED); is Postgres running and PMX_PG_URL right? (infra/setup.sh starts it)');
    const unmigrated = Object.assign(new Error('relation "markets" does not exist'), { code: '42P01' });
    expect(describeStartFailure(unmigrated)).toMatch(/^cannot start: relation "markets" does not exist \(the database is not migrated: run `pnpm --filter @pmx\/db migrate`/);
  });

  it('gives anything else whole, stack included: that is a bug to report', () => {
    const bug = new TypeError('x is not a function');
    expect(describeStartFailure(bug)).toBe(`cannot start: ${bug.stack}`);
  });
});

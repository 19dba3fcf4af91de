// The test harness itself: a server that fails to start leaves no test database behind.
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '@pmx/db';
import { testkitConfig } from '@pmx/testkit';
import { startClob } from './clob-harness.ts';

describe('startClob', () => {
  it('drops its database when the server cannot start', async () => {
    let name = '';
    await expect(startClob({ PMX_SHARDS: '0' }, (created) => (name = created))).rejects.toThrow(/PMX_SHARDS/);
    expect(name).toMatch(/^pmx_test_/);
    const admin = connectPostgres(testkitConfig.pgUrl, { max: 1 });
    try {
      expect(await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).toHaveLength(0);
    } finally {
      await admin.end({ timeout: 1 });
    }
  });
});

// The test harness itself: a server that fails to start leaves no test database behind; one with
// many shards starts without a warning (recovery's abort listeners, one per shard).
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

  it('starts twelve shards without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(warning.name);
    process.on('warning', listen);
    try {
      const h = await startClob({ PMX_SHARDS: '12' });
      await h.close();
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listen);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});

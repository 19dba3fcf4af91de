// Ingest's configuration refuses, at start, numbers that would leave it consuming nothing (the
// front end's next start then waits for it for ever), crash inside BullMQ, or spin on Redis.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { loadIngestConfig } from './config.ts';

describe('loadIngestConfig', () => {
  it('has defaults that run on a fresh machine', () => {
    expect(loadIngestConfig({})).toMatchObject({
      healIntervalMs: 5000,
      maxBatchesPerTransaction: 64,
      historyFlushMs: 200,
    });
    expect(loadIngestConfig({ PMX_SHARDS: '4' }).shards).toBe(4);
  });

  it('refuses numbers out of range', () => {
    for (const env of [
      { PMX_SHARDS: '0' },
      { PMX_SHARDS: '-2' },
      { PMX_SHARDS: '2000' },
      { PMX_INGEST_MAX_BATCHES_PER_TX: '0' },
      { PMX_INGEST_HEAL_INTERVAL_MS: '0' },
      { PMX_INGEST_HEAL_INTERVAL_MS: '-5' },
      { PMX_INGEST_HISTORY_FLUSH_MS: '0' },
    ]) {
      expect(() => loadIngestConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});

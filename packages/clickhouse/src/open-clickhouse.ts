// Opens the `@clickhouse/client` client that all history code uses: over HTTP to a ClickHouse
// server when a URL is given, otherwise over embedded chdb in a local data directory.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { defaults } from '@pmx/config';

export type { ClickHouseClient };

export interface OpenClickHouseOptions {
  /** ClickHouse server URL (http[s]://user:pass@host:8123/db). Empty or absent: embedded chdb. */
  url?: string;
  /**
   * chdb data directory, created if missing; relative paths resolve against the working
   * directory. Default PMX_CLICKHOUSE_PATH's default, data/clickhouse of the repository.
   *
   * chdb allows one data directory per process at a time: opening a second path while a client
   * on the first is open throws ("only one active data directory per process"). Several clients
   * on the same path share one session; after every client on a path is closed, another path
   * may be opened.
   */
  path?: string;
}

/**
 * Settings both backends get, so results do not depend on the engine's version: ClickHouse
 * 25.8 stopped quoting 64-bit integers in JSON formats by default (chdb 3.4 embeds 26.x, a
 * server may be older). Quoted, a UInt64/Int64 arrives as a decimal string and never loses
 * precision above 2^53.
 */
const SHARED_SETTINGS = { output_format_json_quote_64bit_integers: 1 } as const;

export function openClickHouse(options: OpenClickHouseOptions = {}): ClickHouseClient {
  if (options.url) return createClient({ url: options.url, clickhouse_settings: SHARED_SETTINGS });
  const dataDir = path.resolve(options.path || defaults.PMX_CLICKHOUSE_PATH);
  mkdirSync(dataDir, { recursive: true });
  return createClient({
    connection: createChdbConnection({ path: dataDir }) as ClientConnection,
    clickhouse_settings: SHARED_SETTINGS,
  });
}

/**
 * chdb implements the connection contract of `@clickhouse/client-common`, which
 * `@clickhouse/client` >= 1.23 bundles as its own copy; the two copies' SettingsMap classes have
 * private members, so TypeScript sees them as distinct though they are the same code.
 */
type ClientConnection = NonNullable<ClickHouseClientConfigOptions['connection']>;

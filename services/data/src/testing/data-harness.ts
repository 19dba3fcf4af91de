// Test-only: a real account-data service on an ephemeral port over a given Postgres database (the
// one a clob and ingest write, or a fixture of the test's own), with helpers to read it and wait
// for a change to show.

import type { Sql } from '@pmx/db';
import { eventually, readReply, type Response as Reply } from '@pmx/testkit';
import { createDataApp, type DataApp } from '../app.ts';
import { loadDataConfig } from '../config.ts';

export type { Response as Reply } from '@pmx/testkit';

export interface DataHarness {
  url: string;
  app: DataApp;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  /** GETs `path` until `check` holds for its reply (or throws after `timeoutMs`), and returns that reply. */
  until(path: string, check: (reply: Reply) => boolean, timeoutMs?: number): Promise<Reply>;
  /** Stops the service and starts a new one on the same database (a fresh snapshot). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `sql`: the database to read (closed by its owner, not here). `clobUrl`: where live prices come
 * from; without it, prices are never read (open markets are valued at 0.5) unless `env` says so.
 */
export async function startData(options: {
  sql: Sql;
  clobUrl?: string;
  env?: Record<string, string>;
}): Promise<DataHarness> {
  const config = () =>
    loadDataConfig({
      PMX_DATA_DIRECT_PORT: '0',
      PMX_DATA_CLOB_URL: options.clobUrl ?? 'http://127.0.0.1:1',
      PMX_DATA_PRICE_REFRESH_MS: options.clobUrl === undefined ? '0' : '100',
      ...options.env,
    });
  const boot = async () => {
    const app = await createDataApp(config(), { sql: options.sql });
    return { app, url: `http://127.0.0.1:${app.listen().port}` };
  };
  let current = await boot();
  const get = async (path: string, headers: Record<string, string> = {}) =>
    readReply(await fetch(`${current.url}${path}`, { headers }));
  return {
    get url() {
      return current.url;
    },
    get app() {
      return current.app;
    },
    get,
    until: (path, check, timeoutMs = 10_000) =>
      eventually(
        async () => {
          const reply = await get(path);
          return check(reply) ? reply : false;
        },
        timeoutMs,
        `GET ${path}`,
        20,
      ),
    async restart() {
      await current.app.close();
      current = await boot();
    },
    close: () => current.app.close(),
  };
}

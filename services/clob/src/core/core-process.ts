// The core as a process of its own (core-main.ts; docs/design/cluster.md): the core (core-app.ts)
// behind its port — gateways' WebSocket, the operator API, /health — active at once, or as a
// standby that takes over when the active core's shard locks go.

import type { Sql } from '@pmx/db';
import { operatorAuth } from '@pmx/auth';
import type { ListeningHttpServer } from '@pmx/http';
import type { ClobConfig } from '../config.ts';
import { operatorRoutes } from '../routes/operator.ts';
import { operatorLifecycleRoutes } from '../routes/operator-lifecycle.ts';
import { createCore, type Core } from './core-app.ts';
import { CoreServer } from './core-server.ts';

export interface CoreProcess {
  core: Core;
  listening: ListeningHttpServer;
  close(): Promise<void>;
}

export async function startCoreProcess(config: ClobConfig, options: { sql?: Sql } = {}): Promise<CoreProcess> {
  const core = await createCore(config, { sql: options.sql, standby: config.coreStandby });
  let active = false;
  void core.active.then(
    () => (active = true),
    () => {},
  );
  const server = new CoreServer({
    service: core.service,
    active: () => active,
    routes: [
      ...operatorRoutes({ ...core.operator, books: core.core.books }, operatorAuth(config.operatorKey)),
      ...operatorLifecycleRoutes(core.lifecycle, core.core.books, operatorAuth(config.operatorKey)),
    ],
    maxBodyBytes: config.maxBodyBytes,
  });
  let listening: ListeningHttpServer;
  try {
    listening = server.listen(config.corePort, config.coreHost);
  } catch (error) {
    await core.close();
    throw error;
  }
  return {
    core,
    listening,
    async close() {
      // Gateways see the link drop at once and hold new commands for the next core; the shards
      // get their grace to store what is out.
      listening.stopListening();
      server.close();
      await core.close();
      await listening.close({ graceMs: 500 });
    },
  };
}

// Where the armed heartbeat switches are kept (migration 013), so that a restart re-arms them:
// with the switch only in memory, a bot that died while the front end was down would keep its
// orders live for ever after.

import { settledWrite, type Sql } from '@pmx/db';

export interface StoredSwitch {
  apiKey: string;
  heartbeatId: string;
}

export class HeartbeatStore {
  constructor(
    private readonly sql: Sql,
    /** How long a save whose answer was lost is sent again before it fails with OutcomeUnknown. */
    private readonly settleMs = 5000,
    /** How long one sending of a save may run in Postgres (statement_timeout), so that one given up on settles soon. */
    private readonly statementMs = 2000,
  ) {}

  async load(): Promise<StoredSwitch[]> {
    const rows = await this.sql<
      { api_key: string; heartbeat_id: string }[]
    >`SELECT api_key::text, heartbeat_id FROM heartbeat_switches`;
    return rows.map((row) => ({ apiKey: row.api_key, heartbeatId: row.heartbeat_id }));
  }

  /**
   * Sent again while its answer is lost (settledWrite), for up to 5 s: a save whose answer is lost
   * must not be told "not armed" while its row is stored, or a restart would arm it and cancel the
   * bot's orders. Still unsettled after that, it fails with OutcomeUnknown (Heartbeats then
   * removes the row it may have left).
   */
  async save(apiKey: string, heartbeatId: string): Promise<void> {
    await settledWrite(
      () =>
        this.sql.begin(async (tx) => {
          await tx.unsafe(`SET LOCAL statement_timeout = ${Math.trunc(this.statementMs)}`);
          await tx`
            INSERT INTO heartbeat_switches (api_key, heartbeat_id) VALUES (${apiKey}, ${heartbeatId})
            ON CONFLICT (api_key) DO UPDATE SET heartbeat_id = EXCLUDED.heartbeat_id, armed_at = now()`;
        }),
      { deadlineMs: this.settleMs },
    );
  }

  /** The switch fired (or its key went): only this id's row, so a switch armed since stays. */
  async remove(apiKey: string, heartbeatId: string): Promise<void> {
    await this.sql`DELETE FROM heartbeat_switches WHERE api_key = ${apiKey} AND heartbeat_id = ${heartbeatId}`;
  }
}

// API keys (level-2 credentials) in Postgres, cached in memory so the per-request lookup is a
// Map read; a key made by another process is fetched once on a miss. Without the cache (a
// service that only reads keys another one issues) every lookup asks Postgres, so a deleted key
// stops working at once.

import { OutcomeUnknown, settledWrite, type Sql } from '@pmx/db';

import { newApiCredentials } from '@pmx/signing';

export interface ApiKeyRecord {
  apiKey: string;
  /** Lower-case wallet address. */
  address: string;
  nonce: string;
  secret: string;
  passphrase: string;
}

interface ApiKeyRow {
  api_key: string;
  address: string;
  nonce: string;
  secret: string;
  passphrase: string;
}

/** Made-up keys remembered at most (then forgotten all at once). */
const MAX_UNKNOWN = 100_000;

/** An API key as issued: a lower-case uuid. */
const API_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const fromRow = (row: ApiKeyRow): ApiKeyRecord => ({
  apiKey: row.api_key,
  address: row.address,
  nonce: String(row.nonce),
  secret: row.secret,
  passphrase: row.passphrase,
});

export interface ApiKeyStoreOptions {
  /** Keep keys in memory (default true). */
  cache?: boolean;
  /** How long a deletion whose answer was lost is sent again before it fails unsettled (10 s). */
  settleMs?: number;
}

export class ApiKeyStore {
  private readonly byKey = new Map<string, ApiKeyRecord>();
  /** Keys deleted (or being deleted) by this process: never cached again, never answered. */
  private readonly deleted = new Set<string>();
  /** Deletes under way in Postgres, by key. */
  private readonly deleting = new Map<string, Promise<boolean>>();
  /**
   * Well-formed keys Postgres did not know, so that a flood of made-up keys costs one query each,
   * not one per request. Safe to keep: keys are random uuids, so nobody can send one before it
   * was issued and handed to them; a key issued later was never asked for before.
   */
  private readonly unknown = new Set<string>();
  private readonly cache: boolean;
  /** How long a deletion whose answer was lost is sent again before it is answered as unsettled. */
  private readonly settleMs: number;

  constructor(
    private readonly sql: Sql,
    options: ApiKeyStoreOptions = {},
  ) {
    this.cache = options.cache ?? true;
    this.settleMs = options.settleMs ?? 10_000;
  }

  /** Fills the cache with every key (a no-op without the cache). */
  async load(): Promise<void> {
    if (!this.cache) return;
    for (const row of await this.sql<
      ApiKeyRow[]
    >`SELECT api_key, address, nonce::text AS nonce, secret, passphrase FROM api_keys`) {
      this.byKey.set(row.api_key, fromRow(row));
    }
  }

  /** Creates the key for (address, nonce); 'exists' when there is one already. */
  async create(address: string, nonce: string): Promise<ApiKeyRecord | 'exists'> {
    const credentials = newApiCredentials();
    const rows = await this.sql<ApiKeyRow[]>`
      INSERT INTO api_keys (api_key, address, nonce, secret, passphrase)
      VALUES (${credentials.apiKey}, ${address.toLowerCase()}, ${nonce}, ${credentials.secret}, ${credentials.passphrase})
      ON CONFLICT (address, nonce) DO NOTHING
      RETURNING api_key, address, nonce::text AS nonce, secret, passphrase`;
    if (rows.length === 0) return 'exists';
    const record = fromRow(rows[0]!);
    if (this.cache) this.byKey.set(record.apiKey, record);
    return record;
  }

  async derive(address: string, nonce: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.sql<ApiKeyRow[]>`
      SELECT api_key, address, nonce::text AS nonce, secret, passphrase FROM api_keys
      WHERE address = ${address.toLowerCase()} AND nonce = ${nonce}`;
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  async lookup(apiKey: string): Promise<ApiKeyRecord | undefined> {
    const cached = this.byKey.get(apiKey);
    if (cached !== undefined) return cached;
    // Only the spelling issued (lower-case uuid): Postgres would match any case, the cache would
    // then hold the other spelling, and delete() (which clears the issued one) would leave it usable.
    // Anything else that is not a uuid would be a Postgres error, not an unknown key.
    if (!API_KEY.test(apiKey) || this.unknown.has(apiKey) || this.deleted.has(apiKey)) return undefined;
    const rows = await this.sql<ApiKeyRow[]>`
      SELECT api_key, address, nonce::text AS nonce, secret, passphrase FROM api_keys WHERE api_key = ${apiKey}`;
    // A delete that began while this read was out may have cleared the cache already; the row
    // this read saw must not bring the key back.
    if (rows[0] === undefined) {
      if (this.unknown.size >= MAX_UNKNOWN) this.unknown.clear();
      this.unknown.add(apiKey);
      return undefined;
    }
    if (this.deleted.has(apiKey)) return undefined;
    const record = fromRow(rows[0]);
    if (this.cache) this.byKey.set(apiKey, record);
    return record;
  }

  async listFor(address: string): Promise<string[]> {
    const rows = await this.sql<
      { api_key: string }[]
    >`SELECT api_key FROM api_keys WHERE address = ${address.toLowerCase()} ORDER BY created_at`;
    return rows.map((r) => r.api_key);
  }

  /** A key another process deleted: refused here from now on. */
  forget(apiKey: string): void {
    this.byKey.delete(apiKey);
    this.deleted.add(apiKey);
  }

  /** True once `delete` was called for the key in this process (also while it is under way). */
  isDeleted(apiKey: string): boolean {
    return this.deleted.has(apiKey);
  }

  /**
   * Refuses the key in this process from the moment it is called (keys are never reissued), runs
   * `first` (what must be done while the key still exists, such as closing its orders: once the
   * row is gone nothing could, even after a crash), then deletes the row. If `first` or the
   * delete fails the key is given back, so its owner can retry (and cancel its orders meanwhile)
   * rather than be locked out of a key that still exists. A second delete while one is under way
   * shares its outcome (false: the first one deleted it).
   */
  async delete(apiKey: string, first?: () => Promise<void>): Promise<boolean> {
    if (!API_KEY.test(apiKey)) {
      this.byKey.delete(apiKey);
      return false;
    }
    const underWay = this.deleting.get(apiKey);
    if (underWay !== undefined) return underWay.then(() => false);
    const deletedBefore = this.deleted.has(apiKey);
    const cached = this.byKey.get(apiKey);
    this.byKey.delete(apiKey);
    this.deleted.add(apiKey);
    const run = (async () => {
      await first?.();
      // Until Postgres answers (settledWrite): a lost answer must not give the key back while its
      // row is gone (listed nowhere, yet working until a restart).
      const { value: rows, resent } = await settledWrite(
        () => this.sql`DELETE FROM api_keys WHERE api_key = ${apiKey} RETURNING api_key`,
        { deadlineMs: this.settleMs },
      );
      return rows.length > 0 || resent;
    })();
    this.deleting.set(apiKey, run);
    try {
      return await run;
    } catch (error) {
      // Not deleted, so given back; but one whose outcome stayed unknown (OutcomeUnknown) is not:
      // a key that may be gone from Postgres stops working here (a restart loads it if it is not).
      if (!deletedBefore && !(error instanceof OutcomeUnknown)) {
        this.deleted.delete(apiKey);
        if (cached !== undefined) this.byKey.set(apiKey, cached);
      }
      throw error;
    } finally {
      this.deleting.delete(apiKey);
    }
  }
}

// One kind's records by id and by each of its unique keys (slug, condition id, wallet), kept in
// step on every put and drop. A key another record has taken in the meantime (two slugs
// swapped within one batch) is left to that record.

export class RecordTable<T extends { id: number }, K extends string> {
  private readonly byId = new Map<number, T>();
  private readonly byKey = new Map<K, Map<string, T>>();
  /** For each shared key, the ids holding each value (usually one). */
  private readonly holders = new Map<K, Map<string, Set<number>>>();

  /**
   * @param shared keys several records may hold at once (a profile's base address: one signer,
   *   several proxy wallets): `find` answers the lowest id among them, whatever the order they
   *   were stored in, and another one when that one lets go of the key: the key stays in the
   *   index while any record holds it (a profile still holding it is found).
   */
  constructor(
    private readonly keyOf: Readonly<Record<K, (record: T) => string | null>>,
    private readonly shared: readonly K[] = [],
  ) {
    for (const key of Object.keys(keyOf) as K[]) this.byKey.set(key, new Map());
    for (const key of shared) this.holders.set(key, new Map());
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): T | undefined {
    return this.byId.get(id);
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  values(): IterableIterator<T> {
    return this.byId.values();
  }

  find(key: K, value: string): T | undefined {
    return this.byKey.get(key)!.get(value);
  }

  /** Stores the record (replacing its previous version); returns that previous version. */
  put(record: T): T | undefined {
    const old = this.drop(record.id);
    this.byId.set(record.id, record);
    for (const [key, index] of this.byKey) {
      const value = this.keyOf[key](record);
      if (value === null) continue;
      const holders = this.holders.get(key);
      if (holders === undefined) {
        index.set(value, record);
        continue;
      }
      let ids = holders.get(value);
      if (ids === undefined) holders.set(value, (ids = new Set()));
      ids.add(record.id);
      const holder = index.get(value);
      if (holder === undefined || record.id < holder.id) index.set(value, record);
    }
    return old;
  }

  drop(id: number): T | undefined {
    const old = this.byId.get(id);
    if (old === undefined) return undefined;
    this.byId.delete(id);
    for (const [key, index] of this.byKey) {
      const value = this.keyOf[key](old);
      if (value === null) continue;
      const ids = this.holders.get(key)?.get(value);
      ids?.delete(id);
      if (ids?.size === 0) this.holders.get(key)!.delete(value);
      if (index.get(value) !== old) continue;
      index.delete(value);
      // The next holder among the few that share the value (a scan of every record here would make
      // a batch of profile updates cost records × updates: 12 s for 40,000).
      let next: number | undefined;
      for (const other of ids ?? []) if (next === undefined || other < next) next = other;
      if (next !== undefined) index.set(value, this.byId.get(next)!);
    }
    return old;
  }
}

/** Records for ids, skipping ids with no record. */
export function* recordsOf<T>(ids: Iterable<number>, records: { get(id: number): T | undefined }): Iterable<T> {
  for (const id of ids) {
    const record = records.get(id);
    if (record !== undefined) yield record;
  }
}

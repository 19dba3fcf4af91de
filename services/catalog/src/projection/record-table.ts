// One kind's records by id and by each of its unique keys (slug, condition id, wallet), kept in
// step on every put and drop. A key another record has taken in the meantime (two slugs
// swapped within one batch) is left to that record.

export class RecordTable<T extends { id: number }, K extends string> {
  private readonly byId = new Map<number, T>();
  private readonly byKey = new Map<K, Map<string, T>>();

  constructor(private readonly keyOf: Readonly<Record<K, (record: T) => string | null>>) {
    for (const key of Object.keys(keyOf) as K[]) this.byKey.set(key, new Map());
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
      if (value !== null) index.set(value, record);
    }
    return old;
  }

  drop(id: number): T | undefined {
    const old = this.byId.get(id);
    if (old === undefined) return undefined;
    this.byId.delete(id);
    for (const [key, index] of this.byKey) {
      const value = this.keyOf[key](old);
      if (value !== null && index.get(value) === old) index.delete(value);
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

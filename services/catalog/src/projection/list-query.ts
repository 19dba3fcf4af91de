// Filtering, sorting and paging of one kind's records, shared by every list endpoint. Without an
// index to narrow it, a query walks a presorted view (built once per data version, sort and
// status partition) and stops at offset + limit matches — or slices it when nothing else
// filters; with an index, it filters the few candidates and sorts those.

export type SortValue = number | string | null;
export type SortKey<T> = (record: T) => SortValue;

export interface SortPlan<T> {
  /** Sort fields in priority order, by their wire names; empty = by id. */
  fields: readonly string[];
  keys: readonly SortKey<T>[];
  ascending: boolean;
}

/**
 * A filter with few distinct values (active/closed/archived/creator) that presorted views are
 * partitioned by: `key` names the partition, `test` says who is in it.
 */
export interface Partition<T> {
  key: string;
  test: (record: T) => boolean;
}

export interface PageQuery<T> {
  plan: SortPlan<T>;
  partition?: Partition<T>;
  /** The rest of the filters; undefined = none (a page is then a slice of the view). */
  matches?: (record: T) => boolean;
  offset: number;
  limit: number;
  /** Records an index narrowed the query to (e.g. one tag's markets); undefined = all. */
  candidates?: Iterable<T>;
}

const MAX_CACHED_VIEWS = 128;

/** Nulls last in either direction; ties by id ascending, so pages are stable. */
export function comparator<T extends { id: number }>(plan: SortPlan<T>): (a: T, b: T) => number {
  const { keys, ascending } = plan;
  const sign = ascending ? 1 : -1;
  return (a, b) => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return x < y ? -sign : sign;
    }
    return a.id - b.id;
  };
}

export class RecordList<T extends { id: number }> {
  private views = new Map<string, T[]>();
  private viewsVersion = -1;

  constructor(
    private readonly records: () => Iterable<T>,
    private readonly version: () => number,
  ) {}

  page(query: PageQuery<T>): T[] {
    const { plan, partition, matches, offset, limit } = query;
    if (limit <= 0) return [];
    if (query.candidates !== undefined) {
      const found: T[] = [];
      for (const record of query.candidates) {
        if ((partition === undefined || partition.test(record)) && (matches === undefined || matches(record)))
          found.push(record);
      }
      found.sort(comparator(plan));
      return found.slice(offset, offset + limit);
    }
    const view = this.sorted(plan, partition);
    if (matches === undefined) return view.slice(offset, offset + limit);
    const out: T[] = [];
    let skip = offset;
    for (const record of view) {
      if (!matches(record)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(record);
      if (out.length === limit) break;
    }
    return out;
  }

  /** All records (of the partition) in plan order, built once per data version. */
  private sorted(plan: SortPlan<T>, partition: Partition<T> | undefined): readonly T[] {
    const version = this.version();
    if (version !== this.viewsVersion) {
      this.views = new Map();
      this.viewsVersion = version;
    }
    const name = `${plan.fields.join(',')}:${plan.ascending}|${partition?.key ?? ''}`;
    let view = this.views.get(name);
    if (view === undefined) {
      const records = [...this.records()];
      view = (partition === undefined ? records : records.filter(partition.test)).sort(comparator(plan));
      // Least recently used out: odd sorts cannot crowd out the ones every page asks for.
      if (this.views.size >= MAX_CACHED_VIEWS) this.views.delete(this.views.keys().next().value!);
    } else {
      this.views.delete(name);
    }
    this.views.set(name, view);
    return view;
  }
}

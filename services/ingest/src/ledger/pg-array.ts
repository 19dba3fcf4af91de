// Postgres array literals for the set-based statements: `unnest(${pgArray(xs)}::bigint[], …)`.
// Serialized here rather than through the driver's array typing, which depends on the server's
// array types having been fetched (not yet true for the first query of a fresh pool).

export type ArrayItem = string | number | bigint | boolean | null;

function element(value: ArrayItem): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`pgArray: ${value} is not a finite number`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/** The text form of a one-dimensional array; cast it to the column type in SQL. */
export function pgArray(values: readonly ArrayItem[]): string {
  return `{${values.map(element).join(',')}}`;
}

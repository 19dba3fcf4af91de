// ISO 8601 dates as the services take them from operators: a date, optionally with a time and a
// zone, naming a real day (not 2024-02-30), within UTC years 1000–9999. Postgres refuses year 0,
// a zone can push 9999-12-31 into year 10000, and postgres.js reads years below 100 back as 19xx;
// `Date.parse` alone also takes "1", "March 7" and rolls impossible days over.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant `text` names, or undefined when it is not such a date. */
export function parseIsoDate(text: string): Date | undefined {
  const match = ISO_DATE.exec(text);
  const at = Date.parse(text);
  if (match === null || Number.isNaN(at)) return undefined;
  const utcYear = new Date(at).getUTCFullYear();
  if (utcYear < 1000 || utcYear > 9999) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return new Date(at);
}

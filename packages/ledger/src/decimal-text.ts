// Postgres numerics keep their scale ("0.550000"); the wire wants the shortest form ("0.55").

export function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

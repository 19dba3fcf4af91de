// The shell every bench report page shares: escaping, one inline style sheet, tables from rows.
// Pages are single self-contained files (no script, no external asset).

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
body { font-family: sans-serif; margin: 24px auto; max-width: 1000px; color: #222; line-height: 1.4; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1a7f37; font-weight: bold; } .fail { color: #cf222e; font-weight: bold; }
.meta { color: #555; font-size: 13px; } svg { display: block; margin: 8px 0 18px; max-width: 100%; height: auto; }
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

export type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (typeof value === 'boolean') return `<td class="${value ? 'ok' : 'fail'}">${value ? 'yes' : 'no'}</td>`;
  if (typeof value === 'number') return `<td class="num">${escapeHtml(value.toLocaleString('en'))}</td>`;
  return `<td>${escapeHtml(value == null ? '' : String(value))}</td>`;
}

/** A table of rows with the union of their keys as columns, in first-seen order. */
export function table(rows: readonly Record<string, Cell>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows.map((row) => `<tr>${columns.map((c) => cell(row[c])).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

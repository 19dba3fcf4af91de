// Small server-side SVG charts for the bench reports: a line chart of series over a shared x axis
// and a horizontal bar chart. Plain strings, no browser, no dependency; the page stays one file.

import { escapeHtml } from './html.ts';

export interface Series {
  name: string;
  /** One value per x; null leaves a gap. */
  values: (number | null)[];
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  series: Series[];
  /** A horizontal line to read the series against (a goal or a ceiling). */
  reference?: { label: string; value: number };
  /** Vertical lines at moments of the run (an x value each), such as a process killed. */
  marks?: { label: string; x: number }[];
}

const WIDTH = 760;
const HEIGHT = 260;
const PAD = { left: 64, right: 16, bottom: 40 };
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/** A round step giving about `count` ticks over [0, max]. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 2.5, 5, 10].find((u) => u * power >= raw) ?? 10;
  return unit * power;
}

function format(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `${(value / 1000).toFixed(0)}k`;
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(value < 1 ? 2 : 1);
}

function axes(top: number, xMax: number, yMax: number, xLabel: string, yLabel: string): string[] {
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - top - PAD.bottom;
  const parts: string[] = [];
  const yStep = niceStep(yMax, 5);
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    const y = top + plotH - (v / yMax) * plotH;
    parts.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#e5e5e5"/>`,
    );
    parts.push(`<text x="${PAD.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${format(v)}</text>`);
  }
  const xStep = niceStep(Math.max(1, xMax), 8);
  for (let v = 0; v <= xMax + 1e-9; v += xStep) {
    const x = PAD.left + (v / Math.max(1e-9, xMax)) * plotW;
    parts.push(
      `<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${top + plotH}" y2="${top + plotH + 4}" stroke="#888"/>`,
    );
    parts.push(`<text x="${x.toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">${format(v)}</text>`);
  }
  parts.push(
    `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#888"/>`,
  );
  parts.push(`<line x1="${PAD.left}" x2="${PAD.left}" y1="${top}" y2="${top + plotH}" stroke="#888"/>`);
  parts.push(`<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  parts.push(
    `<text transform="translate(14 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`,
  );
  return parts;
}

/** A path through the points, broken where a value is missing. */
function path(x: number[], values: (number | null)[], sx: (v: number) => number, sy: (v: number) => number): string {
  let d = '';
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null || !Number.isFinite(value)) {
      drawing = false;
      return;
    }
    d += `${drawing ? 'L' : 'M'}${sx(x[i]!).toFixed(1)} ${sy(value).toFixed(1)} `;
    drawing = true;
  });
  return d.trim();
}

export function lineChart(spec: LineChartSpec): string {
  const values = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const yMax = Math.max(1e-9, ...values, spec.reference?.value ?? 0) * 1.08;
  const xMax = Math.max(1, ...spec.x);
  // The legend sits above the plot, four series a row.
  const top = 30 + Math.ceil(spec.series.length / 4) * 14;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - top - PAD.bottom;
  const sx = (v: number) => PAD.left + (v / xMax) * plotW;
  const sy = (v: number) => top + plotH - (v / yMax) * plotH;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="11" role="img" aria-label="${escapeHtml(spec.title)}">`,
    `<text x="${PAD.left}" y="16" font-size="13" font-weight="bold">${escapeHtml(spec.title)}</text>`,
    ...axes(top, xMax, yMax, spec.xLabel, spec.yLabel),
  ];
  if (spec.reference !== undefined) {
    const y = sy(spec.reference.value).toFixed(1);
    parts.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}" stroke="#555" stroke-dasharray="5 4"/>`,
    );
    parts.push(
      `<text x="${WIDTH - PAD.right - 4}" y="${Number(y) - 4}" text-anchor="end" fill="#555">${escapeHtml(spec.reference.label)}</text>`,
    );
  }
  for (const mark of spec.marks ?? []) {
    const x = sx(mark.x).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${top}" y2="${top + plotH}" stroke="#000" stroke-dasharray="3 3"/>`);
    parts.push(`<text x="${Number(x) + 4}" y="${top + 10}" fill="#000">${escapeHtml(mark.label)}</text>`);
  }
  spec.series.forEach((series, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const d = path(spec.x, series.values, sx, sy);
    if (d !== '') parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.6"/>`);
    const lx = PAD.left + 8 + (i % 4) * 170;
    const ly = 34 + Math.floor(i / 4) * 14;
    parts.push(`<rect x="${lx}" y="${ly - 8}" width="10" height="3" fill="${color}"/>`);
    parts.push(`<text x="${lx + 14}" y="${ly - 4}">${escapeHtml(series.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface Bar {
  label: string;
  value: number;
  /** Default: the palette's red. */
  color?: string;
}

/** Horizontal bars, each labelled with its value; longest first unless `sorted` is false. */
export function barChart(title: string, bars: Bar[], unit = '', sorted = true): string {
  const rowH = 22;
  const labelW = 400;
  const height = 36 + Math.max(1, bars.length) * rowH;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const barW = WIDTH - labelW - 80;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11" role="img" aria-label="${escapeHtml(title)}">`,
    `<text x="8" y="16" font-size="13" font-weight="bold">${escapeHtml(title)}</text>`,
  ];
  if (bars.length === 0) parts.push(`<text x="8" y="44" fill="#555">none</text>`);
  (sorted ? [...bars].sort((a, b) => b.value - a.value) : bars).forEach((bar, i) => {
    const y = 28 + i * rowH;
    const w = (bar.value / max) * barW;
    const label = bar.label.length > 64 ? `${bar.label.slice(0, 63)}…` : bar.label;
    parts.push(`<text x="8" y="${y + 14}">${escapeHtml(label)}</text>`);
    const color = bar.color ?? PALETTE[1];
    parts.push(`<rect x="${labelW}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${color}"/>`);
    parts.push(`<text x="${labelW + w + 6}" y="${y + 14}">${format(bar.value)}${escapeHtml(unit)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

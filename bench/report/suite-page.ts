// The bench suite's page, bench/results/index.html: where the exchange stands, rebuilt from every
// result in the folder each time a bench or a bots run writes one. Each bench shows its goal, its
// figures beside their anchors measured in the same run (ceiling, floor or peer), and its table;
// the bots runs are listed with their headline figures and a link to their own report.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml, page, table, type Cell } from './html.ts';
import { barChart, PALETTE } from './svg-chart.ts';

/** A bench result as report.ts writes it. */
interface StoredBench {
  bench: string;
  goal: string;
  rows: Record<string, Cell>[];
  figures: Record<string, Cell>;
  anchors?: { figure: string; value: number; anchor: string; anchorValue: number; unit: string }[];
  machine?: { cpus: number; cpu: string; node: string };
  at?: string;
}

/** What the page reads of a bots run's run.json. */
interface StoredBotsRun {
  name: string;
  startedAt: string;
  bots: { makers: number; takers: number; noise: number };
  summary: {
    seconds: number;
    ordersPerSec: number;
    fillsPerSec: number;
    ackP50Ms: number | null;
    ackP99Ms: number | null;
    rejects: number;
  };
  checks: { ok: boolean }[];
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function benchSection(b: StoredBench): string {
  const goals = Object.entries(b.figures).filter(([name]) => name.startsWith('meets'));
  const parts = [
    `<h2 id="${escapeHtml(b.bench)}">${escapeHtml(b.bench)}</h2>`,
    `<p>Goal: ${escapeHtml(b.goal)}</p>`,
    `<p class="meta">${escapeHtml(b.at ?? '')}${b.machine === undefined ? '' : ` · ${b.machine.cpus} × ${escapeHtml(b.machine.cpu)} · node ${escapeHtml(b.machine.node)}`}</p>`,
  ];
  if (goals.length > 0) parts.push(table(goals.map(([goal, met]) => ({ goal, met }))));
  if (b.anchors !== undefined && b.anchors.length > 0) {
    parts.push(
      table(
        b.anchors.map((a) => ({
          figure: a.figure,
          value: a.value,
          'measured beside': a.anchor,
          'its value': a.anchorValue,
          unit: a.unit,
          ratio: a.anchorValue === 0 ? '' : (a.value / a.anchorValue).toFixed(2),
        })),
      ),
      barChart(
        `${b.bench}: each figure beside its anchor`,
        b.anchors.flatMap((a) => [
          { label: `${a.figure} (${a.unit})`, value: a.value, color: PALETTE[0] },
          { label: `  beside: ${a.anchor}`, value: a.anchorValue, color: '#999' },
        ]),
        '',
        false,
      ),
    );
  }
  parts.push(table(b.rows));
  return parts.join('\n');
}

function botsSection(dir: string): string {
  const runs = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'run.json')))
    .map((entry) => readJson<StoredBotsRun>(join(dir, entry.name, 'run.json')))
    .filter((run): run is StoredBotsRun => run !== undefined)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  if (runs.length === 0) return '<h2>Bots runs</h2><p>None in this folder yet: <code>pnpm bots</code>.</p>';
  return (
    '<h2 id="bots">Bots runs</h2>' +
    table(
      runs.map((run) => ({
        run: run.name,
        at: run.startedAt,
        bots: `${run.bots.makers} makers, ${run.bots.takers} takers, ${run.bots.noise} noise`,
        seconds: run.summary.seconds,
        'orders/s': run.summary.ordersPerSec,
        'fills/s': run.summary.fillsPerSec,
        'ack p50 ms': run.summary.ackP50Ms,
        'ack p99 ms': run.summary.ackP99Ms,
        'checks passed': run.checks.every((c) => c.ok),
      })),
    ) +
    `<p>${runs.map((run) => `<a href="${encodeURIComponent(run.name)}/report.html">${escapeHtml(run.name)}</a>`).join(' · ')}</p>`
  );
}

/** Rebuilds `dir`/index.html from the results in `dir`; returns its path. */
export function writeSuitePage(dir: string): string {
  const benches = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => readJson<StoredBench>(join(dir, name)))
    .filter((b): b is StoredBench => b !== undefined && typeof b.bench === 'string' && Array.isArray(b.rows))
    .sort((a, b) => a.bench.localeCompare(b.bench));
  const body = [
    '<h1>pmx bench suite</h1>',
    '<p class="meta">Each bench measures its figures beside their anchors in the same run; figures carry their date and machine. ' +
      'Regenerated whenever a bench or a bots run writes a result.</p>',
    `<p>${benches.map((b) => `<a href="#${escapeHtml(b.bench)}">${escapeHtml(b.bench)}</a>`).join(' · ')} · <a href="#bots">bots runs</a></p>`,
    ...benches.map(benchSection),
    botsSection(dir),
  ];
  const file = join(dir, 'index.html');
  writeFileSync(file, page('pmx bench suite', body.join('\n')));
  return file;
}

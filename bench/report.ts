// Shared output of every bench: a console table, a JSON file under bench/results/, and the suite
// page bench/results/index.html rebuilt from every result there (bench/report/suite-page.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSuitePage } from './report/suite-page.ts';

export type Row = Record<string, string | number>;

/** A figure beside what bounds it, measured in the same run (a ceiling, a floor, a peer). */
export interface Anchor {
  figure: string;
  value: number;
  anchor: string;
  anchorValue: number;
  unit: string;
}

export interface BenchReport {
  bench: string;
  goal: string;
  rows: Row[];
  figures: Record<string, number | string | boolean>;
  anchors?: Anchor[];
}

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'results');

export { writeSuitePage };

export function writeReport(report: BenchReport): string {
  const resultsDir = RESULTS_DIR;
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${report.bench}.json`);
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
  writeFileSync(file, JSON.stringify({ ...report, machine, at: new Date().toISOString() }, null, 2) + '\n');
  console.log(`\n${report.bench}: ${report.goal}`);
  console.table(report.rows);
  for (const [name, value] of Object.entries(report.figures)) console.log(`  ${name}: ${value}`);
  console.log(`  results written to ${file}`);
  console.log(`  suite page: ${writeSuitePage(resultsDir)}`);
  return file;
}

/** Nearest-rank percentile of an unsorted sample (sorts a copy). */
export function percentiles(sample: Float64Array, wanted: number[]): number[] {
  const sorted = Float64Array.from(sample).sort();
  return wanted.map(
    (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN,
  );
}

// The report of one bots run (bench/results/<run>/report.html beside its run.json): headline
// figures, the end-of-run checks, and charts of how the exchange held over the run.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BotsRun } from '../bots/run.ts';
import { RESULTS_DIR } from '../report.ts';
import { escapeHtml, page, table, type Cell } from './html.ts';
import { barChart, lineChart } from './svg-chart.ts';

export interface Machine {
  cpus: number;
  cpu: string;
  node: string;
}

const max = (values: (number | null)[]) =>
  values.reduce<number | null>((m, v) => (v === null ? m : m === null ? v : Math.max(m, v)), null);

function headline(run: BotsRun): Record<string, Cell>[] {
  const s = run.summary;
  const samples = run.samples;
  return [
    { figure: 'orders sent / s (accepted)', value: `${s.ordersPerSec} (${Math.round(s.accepted / s.seconds)})` },
    { figure: 'fills (trades) / s', value: s.fillsPerSec },
    { figure: 'cancels / s', value: Math.round(s.cancels / s.seconds) },
    { figure: 'ack p50 / p99 / max, ms', value: `${s.ackP50Ms ?? '-'} / ${s.ackP99Ms ?? '-'} / ${s.ackMaxMs ?? '-'}` },
    { figure: 'orders refused', value: s.rejects },
    { figure: '429s waited out (Retry-After)', value: s.throttled },
    { figure: 'requests without an answer', value: s.requestErrors },
    { figure: 'deepest shard queue (batches)', value: max(samples.map((x) => x.queueDepth)) ?? 0 },
    { figure: 'largest ledger lag, ms', value: max(samples.map((x) => x.ledgerLagMs)) ?? 0 },
    { figure: 'largest history lag behind the ledger, ms', value: max(samples.map((x) => x.historyLagMs)) ?? 'n/a' },
    { figure: 'queues drained after stop, ms', value: run.drainMs },
    ...failover(run),
  ];
}

/** What a failover showed: 425s, answers of unknown outcome and how they settled, the kill. */
function failover(run: BotsRun): Record<string, Cell>[] {
  const s = run.summary;
  const d = s.doubts;
  const rows: Record<string, Cell>[] = [
    {
      figure: '425s (recovering), retried',
      value: `${s.recovering}${
        Object.keys(s.recoveringByKind).length === 0
          ? ''
          : ` (${Object.entries(s.recoveringByKind)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ')})`
      }`,
    },
    {
      figure: 'orders of unknown outcome: found placed / not placed',
      value: `${d.ordersInDoubt}: ${d.foundPlaced} / ${d.foundNotPlaced}${d.duplicates > 0 ? ` (${d.duplicates} "Duplicated.")` : ''}`,
    },
    { figure: 'cancels of unknown outcome (orders read again)', value: d.cancelsInDoubt },
    { figure: 'heartbeats refused, switch armed again', value: d.heartbeatRearms },
  ];
  if (s.kill !== undefined)
    rows.push(
      { figure: 'active core SIGKILLed at, s', value: `${s.kill.atSec} (pid ${s.kill.pid}, port ${s.kill.port})` },
      { figure: 'kill → next accepted order, ms', value: s.kill.nextAcceptedMs ?? 'none' },
    );
  return rows;
}

/** The kill's mark on the charts over time. */
const marksOf = (run: BotsRun) =>
  run.summary.kill === undefined ? [] : [{ label: 'core killed', x: run.summary.kill.atSec }];

function charts(run: BotsRun, cores: number): string {
  const t = run.series.map((row) => row.t);
  const parts = [
    lineChart({
      title: 'Orders and fills per second',
      xLabel: 'seconds',
      yLabel: 'per second',
      x: t,
      series: [
        { name: 'orders sent', values: run.series.map((r) => r.ordersSent) },
        { name: 'orders accepted', values: run.series.map((r) => r.accepted) },
        { name: 'fills (trades)', values: run.series.map((r) => r.fills) },
        { name: 'cancels', values: run.series.map((r) => r.cancels) },
        { name: '425s (recovering)', values: run.series.map((r) => r.recovering) },
        { name: 'unknown outcome', values: run.series.map((r) => r.inDoubt) },
      ],
      marks: marksOf(run),
    }),
    lineChart({
      title: 'Ack latency of order placements (POST /order, POST /orders)',
      xLabel: 'seconds',
      yLabel: 'ms',
      x: t,
      series: [
        { name: 'p50', values: run.series.map((r) => r.ackP50Ms) },
        { name: 'p90', values: run.series.map((r) => r.ackP90Ms) },
        { name: 'p99', values: run.series.map((r) => r.ackP99Ms) },
      ],
      marks: marksOf(run),
    }),
    barChart(
      'Rejections by reason (whole run)',
      Object.entries(run.summary.rejectsByReason).map(([label, value]) => ({ label, value })),
    ),
  ];
  const st = run.samples.map((s) => s.t);
  parts.push(
    lineChart({
      title: 'Shard queues: batches waiting for the ledger',
      xLabel: 'seconds (after the stop: the drain)',
      yLabel: 'batches',
      x: st,
      series: [{ name: 'queue depth', values: run.samples.map((s) => s.queueDepth) }],
      marks: marksOf(run),
    }),
    lineChart({
      title: 'Ingest lag: ledger (oldest unapplied batch) and history (ClickHouse behind the ledger)',
      xLabel: 'seconds',
      yLabel: 'ms',
      x: st,
      series: [
        { name: 'ledger lag', values: run.samples.map((s) => s.ledgerLagMs) },
        { name: 'history lag', values: run.samples.map((s) => s.historyLagMs) },
      ],
      marks: marksOf(run),
    }),
  );
  const groups = [...new Set(run.samples.flatMap((s) => Object.keys(s.cpu)))].sort();
  const total = run.samples.map((s) =>
    Number(
      Object.values(s.cpu)
        .reduce((a, b) => a + b, 0)
        .toFixed(1),
    ),
  );
  parts.push(
    lineChart({
      title: 'CPU per process (% of one core)',
      xLabel: 'seconds',
      yLabel: '% of a core',
      x: st,
      series: [
        ...groups.map((group) => ({ name: group, values: run.samples.map((s) => s.cpu[group] ?? null) })),
        { name: 'all of these', values: total },
      ],
      reference: { label: `all ${cores} cores`, value: cores * 100 },
      marks: marksOf(run),
    }),
    '<h2>Rejections by kind of bot</h2>',
    table(
      Object.entries(run.summary.rejectsByKind ?? {}).map(([reason, count]) => ({ 'kind: reason': reason, count })),
    ),
  );
  return parts.join('\n');
}

function command(run: BotsRun): string {
  const o = run.options;
  return (
    `pnpm bots --makers ${o.makers} --takers ${o.takers} --noise ${o.noise} --markets ${o.markets} ` +
    `--seconds ${o.seconds} --taker-rate ${o.takerRate} --noise-rate ${o.noiseRate} --quote-ms ${o.quoteMs} ` +
    `--drift ${o.drift} --funds ${o.funds} --url ${o.url}${o.ownAddresses ? '' : ' --no-own-addresses'}` +
    (o.killActiveCoreAt === undefined
      ? ''
      : ` --kill-active-core-at ${o.killActiveCoreAt} --core-urls ${o.coreUrls.join(',')}`)
  );
}

export function botsPage(run: BotsRun, machine: Machine): string {
  const passed = run.checks.every((c) => c.ok);
  const body = [
    `<h1>Bots run ${escapeHtml(run.name)}</h1>`,
    `<p class="meta">${escapeHtml(run.startedAt)} · ${machine.cpus} × ${escapeHtml(machine.cpu)} · node ${escapeHtml(machine.node)} · ` +
      `${run.bots.makers} makers, ${run.bots.takers} takers, ${run.bots.noise} noise traders on ${run.markets.length} markets for ${run.summary.seconds} s</p>`,
    `<p class="meta">Reproduce: <code>${escapeHtml(command(run))}</code></p>`,
    `<h2>End-of-run check: <span class="${passed ? 'ok' : 'fail'}">${passed ? 'passed' : 'FAILED'}</span></h2>`,
    table(run.checks.map((c) => ({ check: c.name, ok: c.ok, detail: c.detail }))),
    '<h2>Headline figures</h2>',
    table(headline(run)),
    '<h2>Over the run</h2>',
    charts(run, machine.cpus),
  ];
  return page(`pmx bots run ${run.name}`, body.join('\n'));
}

/** Writes the run's folder under `resultsDir`: its figures as run.json and report.html; returns the folder. */
export function writeBotsRun(run: BotsRun, resultsDir = RESULTS_DIR): string {
  const dir = join(resultsDir, run.name);
  mkdirSync(dir, { recursive: true });
  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...run, machine }, null, 1) + '\n');
  writeFileSync(join(dir, 'report.html'), botsPage(run, machine));
  return dir;
}

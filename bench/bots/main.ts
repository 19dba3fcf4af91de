// `pnpm bots …`: drives the running exchange with a crowd of market makers, takers and noise
// traders, then checks it and writes bench/results/<run>/ (run.json and report.html). Exits 1
// when an end-of-run check fails, 2 on a usage error.

import { join } from 'node:path';
import { Redis } from 'ioredis';
import { connectPostgres } from '@pmx/db';
import { writeBotsRun } from '../report/bots-page.ts';
import { RESULTS_DIR, writeSuitePage } from '../report.ts';
import { BotsUsageError, loadBotsOptions, loadConnections } from './config.ts';
import { runBots } from './run.ts';

async function main(): Promise<number> {
  let options;
  try {
    options = loadBotsOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof BotsUsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  const connections = loadConnections(process.env);
  const sql = connectPostgres(connections.pgUrl, { max: 4 });
  const redis = new Redis(connections.redisUrl, { maxRetriesPerRequest: null });
  try {
    const database = new URL(connections.pgUrl).pathname.slice(1);
    const { run } = await runBots(options, { sql, redis, redisPrefix: connections.redisPrefix, database });
    const dir = writeBotsRun(run, options.resultsDir);
    writeSuitePage(options.resultsDir ?? RESULTS_DIR);
    console.log(
      `\nbots run ${run.name}: ${run.summary.ordersPerSec} orders/s, ${run.summary.fillsPerSec} fills/s, ack p50 ${run.summary.ackP50Ms} ms p99 ${run.summary.ackP99Ms} ms`,
    );
    console.table(run.checks.map((c) => ({ check: c.name, ok: c.ok, detail: c.detail.slice(0, 100) })));
    console.log(`report: ${join(dir, 'report.html')}`);
    return run.checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    redis.disconnect();
    await sql.end({ timeout: 5 });
  }
}

process.exitCode = await main();

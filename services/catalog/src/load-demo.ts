// `tsx services/catalog/src/load-demo.ts` (or `pnpm --filter @pmx/catalog load-demo`): loads the
// deterministic demo catalog (and its order-book markets) into PMX_PG_URL unless it is there
// already. PMX_DEMO_SCALE (default 1: 2,000 events, ~8,000 markets) and PMX_DEMO_SEED (42).
// Run it before starting the clob, which reads `markets` at start.
import { reportStartFailures } from '@pmx/config';
import { connectPostgres } from '@pmx/db';
import { loadDemoLoadConfig } from './config.ts';
import { generateDemoCatalog } from './demo/demo-catalog.ts';
import { loadDemoCatalog } from './demo/demo-loader.ts';

// A bad setting or an unreachable Postgres in one line, as the services say it (it is their first step).
reportStartFailures('load-demo');

const config = loadDemoLoadConfig(process.env);
if (!(config.scale > 0 && config.scale <= 20)) {
  console.error(`load-demo: PMX_DEMO_SCALE must be a number in (0, 20], got ${config.scale}`);
  process.exit(1);
}
const sql = connectPostgres(config.pgUrl, { max: 1, connect_timeout: 10 });
const started = performance.now();
try {
  const demo = generateDemoCatalog({ seed: config.seed, scale: config.scale });
  const result = await loadDemoCatalog(sql, demo);
  const counts = Object.entries(result.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  const ms = Math.round(performance.now() - started);
  console.log(
    result.loaded
      ? `load-demo: loaded ${counts} in ${ms} ms`
      : `load-demo: demo catalog already present (${counts}); nothing to do`,
  );
} catch (error) {
  console.error(`load-demo: FAILED: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}

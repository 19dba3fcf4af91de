// Starts the edge: `pnpm --filter @pmx/edge start` (or infra/start.sh). Renders the HAProxy config
// from the environment into PMX_EDGE_RUN_DIR/haproxy.cfg, checks it and runs HAProxy in the
// foreground; SIGTERM or SIGINT stops it. `--print` writes the rendered config to standard output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logger, reportStartFailures } from '@pmx/config';
import { loadEdgeConfig } from './config.ts';
import { checkConfig, haproxyBinary, runHaproxy } from './haproxy.ts';
import { hostPort, renderEdgeConfig } from './render.ts';

const running = reportStartFailures('edge');
const config = loadEdgeConfig(process.env);
const text = renderEdgeConfig(config, {
  clob: hostPort(config.clob.host, config.clob.port),
  catalog: hostPort(config.catalog.host, config.catalog.port),
  data: hostPort(config.data.host, config.data.port),
  stats: hostPort(config.statsHost, config.statsPort),
});
if (process.argv.includes('--print')) {
  process.stdout.write(text);
} else {
  mkdirSync(config.runDir, { recursive: true });
  const path = join(config.runDir, 'haproxy.cfg');
  writeFileSync(path, text);
  const binary = haproxyBinary(config.haproxy);
  checkConfig(binary, path);
  const haproxy = runHaproxy(binary, path, ['ignore', 'inherit', 'inherit']);
  running();
  logger('edge').info(
    `edge: HAProxy (pid ${haproxy.pid}) on clob ${config.clob.host}:${config.clob.port}, catalog ${config.catalog.host}:${config.catalog.port}, data ${config.data.host}:${config.data.port}; metrics on http://${config.statsHost}:${config.statsPort}/metrics; config ${path}`,
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => haproxy.kill('SIGTERM'));
  haproxy.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 0 : 1)));
}

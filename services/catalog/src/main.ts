// Starts the catalog: `pnpm --filter @pmx/catalog start` (or infra/start.sh).
import { uwsIsNative } from '@pmx/http';
import { createCatalogApp } from './app.ts';
import { DEV_OPERATOR_KEY, loadCatalogConfig } from './config.ts';
import { handleStopSignals, logger, reportStartFailures, setLogLevel } from '@pmx/config';

const running = reportStartFailures('catalog');

const config = loadCatalogConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('catalog');
if (config.operatorKey === DEV_OPERATOR_KEY)
  log.warn('PMX_OPERATOR_KEY is not set; using the development operator key');
if (!uwsIsNative) log.warn('uWebSockets.js native build not loaded; running on its slow fallback');
const started = performance.now();
const app = await createCatalogApp(config);
const listening = await app.listen();
const { state } = app.projection.view;
running();
log.info(
  `listening on http://127.0.0.1:${listening.port}${config.socketPath === '' ? '' : ` and ${config.socketPath}`} ` +
    `(${state.events.size} events, ${state.markets.size} markets, ${state.comments.size} comments loaded in ${Math.round(performance.now() - started)} ms)`,
);

handleStopSignals('catalog', () => app.close());

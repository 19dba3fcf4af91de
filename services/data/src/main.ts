// Starts the account-data service: `pnpm --filter @pmx/data start` (or infra/start.sh).
import { uwsIsNative } from '@pmx/http';
import { handleStopSignals, logger, reportStartFailures, setLogLevel } from '@pmx/config';
import { createDataApp } from './app.ts';
import { loadDataConfig } from './config.ts';

const running = reportStartFailures('data');

const config = loadDataConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('data');
if (!uwsIsNative) log.warn('uWebSockets.js native build not loaded; running on its slow fallback');
const started = performance.now();
const app = await createDataApp(config);
const listening = app.listen();
const { state } = app.projection;
running();
log.info(
  `listening on http://${listening.host}:${listening.port} ` +
    `(${state.markets.size} markets, ${state.wallets.size} wallets loaded in ${Math.round(performance.now() - started)} ms)`,
);

handleStopSignals('data', () => app.close());

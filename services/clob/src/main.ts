// Starts the trading front end: `pnpm --filter @pmx/clob start` (or infra/start.sh).
import { loadClobConfig, DEV_OPERATOR_KEY } from './config.ts';
import { createClobApp } from './app.ts';
import { RecoveryStopped } from './recovery/shard-recovery.ts';
import { signatureBackend } from '@pmx/signing';
import { uwsIsNative } from '@pmx/http';
import { handleStopSignals, logger, reportStartFailures, setLogLevel } from '@pmx/config';

const running = reportStartFailures('clob');

const config = loadClobConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('clob');
if (config.operatorKey === DEV_OPERATOR_KEY)
  log.warn('PMX_OPERATOR_KEY is not set; using the development operator key');
if (!uwsIsNative) log.warn('uWebSockets.js native build not loaded; running on its slow fallback');
const app = await createClobApp(config);
const listening = await app.listen();
app.ready.catch((error: unknown) => {
  if (error instanceof RecoveryStopped) return; // a stop while recovering: the stop exits
  log.fatal({ err: error }, 'recovery failed');
  process.exit(1);
});
const socket = config.socketPath === '' ? '' : ` and ${config.socketPath} (the edge's way in)`;
running();
log.info(
  `listening on http://127.0.0.1:${listening.port}${socket}; clients through the edge on ${config.url} (${config.shards} shards, signatures: ${signatureBackend})`,
);

// One stop at a time: a fault during a graceful stop (or a signal after a fault) does not close
// twice, and the fault's exit status stands.
const stopper = handleStopSignals('clob', () => app.close());
// Fail-stop: the events are in the shards' queues, so a restart rebuilds exactly what happened.
void app.fatal.then(() => {
  log.fatal('exiting after a fatal shard fault; restart to recover from the ledger');
  setTimeout(() => process.exit(70), 5000).unref();
  stopper.stop(70, 'fatal shard fault');
});

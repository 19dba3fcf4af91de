// Starts the trading front end: `pnpm --filter @pmx/clob start` (or infra/start.sh).
import { loadClobConfig, DEV_OPERATOR_KEY } from './config.ts';
import { createClobApp } from './app.ts';
import { signatureBackend } from '@pmx/signing';
import { uwsIsNative } from '@pmx/http';

const config = loadClobConfig(process.env);
if (config.operatorKey === DEV_OPERATOR_KEY) console.warn('clob: PMX_OPERATOR_KEY is not set; using the development operator key');
if (!uwsIsNative) console.warn('clob: uWebSockets.js native build not loaded; running on its slow fallback');
const app = await createClobApp(config);
const listening = await app.listen();
app.ready.catch((error: unknown) => {
  console.error('clob: recovery failed:', error);
  process.exit(1);
});
// Fail-stop: the events are in the shards' queues, so a restart rebuilds exactly what happened.
void app.fatal.then(async () => {
  console.error('clob: exiting after a fatal shard fault; restart to recover from the ledger');
  const exit = () => process.exit(70);
  setTimeout(exit, 5000).unref();
  await app.close().catch(() => {});
  exit();
});
const direct = listening.directPort === listening.port ? '' : `, uWS direct on 127.0.0.1:${listening.directPort}`;
console.log(`clob: listening on http://${listening.host}:${listening.port} (${config.shards} shards, signatures: ${signatureBackend}${direct})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`clob: ${signal}, stopping`);
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

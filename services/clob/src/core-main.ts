// Starts a core of a cluster: `pnpm --filter @pmx/clob core` (infra/cluster.sh runs two, the
// second with PMX_CORE_STANDBY=true). Gateways reach it on PMX_CORE_PORT; docs/guides/cluster.md.
import { loadClobConfig, DEV_OPERATOR_KEY } from './config.ts';
import { startCoreProcess } from './core/core-process.ts';
import { RecoveryStopped } from './recovery/shard-recovery.ts';
import { handleStopSignals, logger, reportStartFailures, setLogLevel } from '@pmx/config';

const running = reportStartFailures('core');

const config = loadClobConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('core');
if (config.operatorKey === DEV_OPERATOR_KEY)
  log.warn('PMX_OPERATOR_KEY is not set; using the development operator key');
const started = await startCoreProcess(config);
const { core } = started;
core.ready.catch((error: unknown) => {
  if (error instanceof RecoveryStopped || (error as Error).name === 'AbortError') return;
  log.fatal({ err: error }, 'recovery failed');
  process.exit(1);
});
running();
log.info(
  `core on ${config.coreHost}:${started.listening.port} (${config.shards} shards) ${config.coreStandby ? 'standing by for the shard locks' : 'active'}`,
);

const stopper = handleStopSignals('core', () => started.close());
void core.fatal.then(() => {
  log.fatal('exiting after a fatal shard fault; a standby takes over, or a restart recovers from the ledger');
  setTimeout(() => process.exit(70), 5000).unref();
  stopper.stop(70, 'fatal shard fault');
});

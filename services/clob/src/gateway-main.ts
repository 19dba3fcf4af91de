// Starts a gateway of a cluster: `pnpm --filter @pmx/clob gateway` (infra/cluster.sh runs several,
// each on its own PMX_CLOB_DIRECT_PORT). It finds the core at PMX_CORE_URLS; docs/guides/cluster.md.
import { loadClobConfig } from './config.ts';
import { startGatewayProcess } from './gateway/gateway-process.ts';
import { signatureBackend } from '@pmx/signing';
import { handleStopSignals, logger, reportStartFailures, setLogLevel } from '@pmx/config';

const running = reportStartFailures('gateway');

const config = loadClobConfig(process.env);
setLogLevel(config.logLevel);
const log = logger('gateway');
const gateway = await startGatewayProcess(config);
running();
const socket = config.socketPath === '' ? '' : ` and ${config.socketPath}`;
log.info(
  `gateway on http://${config.listenHost}:${gateway.listening.port}${socket}; cores at ${config.coreUrls.join(', ')} (signatures: ${signatureBackend})`,
);
handleStopSignals('gateway', () => gateway.close());

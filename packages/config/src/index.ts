// Public surface of @pmx/config: typed env readers, the shared connection defaults, and the exec
// args of worker threads, start failures and stop signals.
export {
  envString,
  envInt,
  envBool,
  envList,
  envMatch,
  envOperatorKey,
  envCorsOrigin,
  redactUrl,
  reportConnectionErrors,
  isLoopbackHost,
  DEV_OPERATOR_KEY,
  ConfigError,
  type Env,
} from './env-readers.ts';
export { defaults, connectionSettings, type ConnectionSettings } from './connection-defaults.ts';
export { workerExecArgv } from './worker-exec-argv.ts';
export { describeStartFailure, reportStartFailures, StartRefusal } from './start-failures.ts';
export { handleStopSignals, type Stopper, type StopOptions } from './stop-signals.ts';
export { throttledLog } from './throttled-log.ts';
export { logger, setLogLevel, envLogLevel, LOG_LEVELS, type Logger, type LogLevel } from './logger.ts';
export { serviceAddress, SERVICE_PORTS, type PublicService, type ServiceAddress } from './service-addresses.ts';

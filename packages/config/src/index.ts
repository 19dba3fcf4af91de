// Public surface of @pmx/config: typed env readers and the shared connection defaults.
export { envString, envInt, envBool, envList, ConfigError, type Env } from './env-readers.ts';
export { defaults, connectionSettings, type ConnectionSettings } from './connection-defaults.ts';

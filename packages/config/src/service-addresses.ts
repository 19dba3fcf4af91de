// Where each public service is reached, read from the same variables by the service and by the
// edge (services/edge) that fronts it: the public host and port are the edge's, the direct port
// and the Unix socket the service's own (docs/design/edge.md).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envInt, envString, type Env } from './env-readers.ts';

export type PublicService = 'clob' | 'catalog' | 'data';

export interface ServiceAddress {
  /** Where clients reach the service: the edge listens here (PMX_<SVC>_HOST, PMX_<SVC>_PORT). */
  host: string;
  port: number;
  /** The service's own port on 127.0.0.1, for tests and internal callers (PMX_<SVC>_DIRECT_PORT; 0: ephemeral). */
  directPort: number;
  /**
   * The address the direct port binds (PMX_<SVC>_LISTEN_HOST): 127.0.0.1, or 0.0.0.0 / the
   * machine's own address for an edge on another machine (a cluster's gateways and replicas).
   */
  listenHost: string;
  /**
   * The service's Unix socket, the edge's way in (PMX_<SVC>_SOCKET): the one place it trusts
   * X-Forwarded-For. Default: the temp folder, named by the direct port; '' (none) when that is 0.
   */
  socketPath: string;
}

const PORT = { min: 0, max: 65_535 };

/** Public and direct ports by default: 8080 and 18080 for the order book, and so on. */
export const SERVICE_PORTS: Record<PublicService, { port: number; directPort: number }> = {
  clob: { port: 8080, directPort: 18080 },
  catalog: { port: 8081, directPort: 18081 },
  data: { port: 8082, directPort: 18082 },
};

export function serviceAddress(env: Env, service: PublicService): ServiceAddress {
  const name = `PMX_${service.toUpperCase()}`;
  const defaults = SERVICE_PORTS[service];
  const directPort = envInt(env, `${name}_DIRECT_PORT`, defaults.directPort, PORT);
  return {
    host: envString(env, `${name}_HOST`, '127.0.0.1'),
    port: envInt(env, `${name}_PORT`, defaults.port, PORT),
    directPort,
    listenHost: envString(env, `${name}_LISTEN_HOST`, '127.0.0.1'),
    socketPath: envString(
      env,
      `${name}_SOCKET`,
      directPort === 0 ? '' : join(tmpdir(), `pmx-${service}-${directPort}.sock`),
    ),
  };
}

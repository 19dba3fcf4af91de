// Puts a server on its public port: uWS itself, or (by default) the header-normalising front with
// uWS behind it on a loopback port, so clients may send the contract's SVC_X header names.
// A server behind the front should trust one more X-Forwarded-For hop (the front's).

import type { HttpServer } from './http-server.ts';
import { startHeaderProxyThread } from './header-proxy-thread.ts';

export interface ServeOptions {
  host: string;
  port: number;
  /** Put the header-normalising front on the public port. */
  headerCompat: boolean;
  /** uWS's own port behind the front (0: ephemeral); ignored without the front. */
  directPort?: number;
}

export interface Served {
  host: string;
  /** The public port. */
  port: number;
  /** uWS's own port (the public one without the front). */
  directPort: number;
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function serve(server: HttpServer, options: ServeOptions): Promise<Served> {
  if (!options.headerCompat) {
    const listening = server.listen(options.port, options.host);
    return { host: options.host, port: listening.port, directPort: listening.port, close: (o) => listening.close(o) };
  }
  const listening = server.listen(options.directPort ?? 0, '127.0.0.1');
  const front = await startHeaderProxyThread({ host: options.host, port: options.port, target: { host: '127.0.0.1', port: listening.port }, maxBodyBytes: server.maxBodyBytes });
  return {
    host: options.host,
    port: front.port,
    directPort: listening.port,
    async close(o) {
      await front.close();
      await listening.close(o);
    },
  };
}

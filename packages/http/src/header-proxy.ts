// A thin TCP front for a uWS server: uWS 20.30 closes any request whose header names contain
// '_' (the contract's SVC_API_KEY, the official client's POLY_ADDRESS), so this listener rewrites
// '_' to '-' in header names and appends the client's address to X-Forwarded-For. It frames each
// request to find the next head: Content-Length bodies stream through, chunked bodies are
// decoded and forwarded with a Content-Length (uWS refuses chunk extensions). Ambiguous framing
// (repeated lengths, length with chunked) is refused, never guessed. Responses pass untouched,
// but are framed too: a client's pipelined request goes up only once the answer before it is
// through, because uWS drops a connection (and its pending answer) that pipelines behind an
// async handler. GETs of routes that answer at once may instead share a few connections to uWS
// with other clients' (get-lanes.ts), which saves the front a write and a read to uWS per GET.

import net from 'node:net';
import { errorBody, type ErrorShape } from './error-shape.ts';
import { handle, ownAnswer, type FrontSettings } from './front-connection.ts';
import { GetLanes, type LaneTarget } from './get-lanes.ts';
import { sharedPathTest } from './shared-paths.ts';

export interface HeaderProxyOptions {
  host?: string;
  port: number;
  /** The server behind: a TCP address, or a Unix socket (cheaper per request on one machine). */
  target: LaneTarget;
  /** Largest request head accepted; above it the connection gets 431. Default 64 KiB. */
  maxHeadBytes?: number;
  /** Largest chunked body decoded; above it the connection gets 413. Default 8 MiB. */
  maxChunkedBytes?: number;
  /**
   * The largest body the server behind accepts: a longer body (declared, or chunked once decoded)
   * is not forwarded, only its head with its length, which the server answers (413) and closes on
   * cleanly. Forwarding it would make the
   * server close with bytes unread, and the reset can destroy its answer before the front reads it.
   */
  maxBodyBytes?: number;
  /** The server's CORS origin (HttpServerOptions.corsOrigin): the front's own answers carry it too. */
  corsOrigin?: string;
  /** The server's error shape (HttpServerOptions.errorShape), for the front's own answers; default simple. */
  errorShape?: ErrorShape;
  /**
   * Patterns of GET routes that answer at once (HttpServer.immediateGets): their GETs go to the
   * server pipelined over a few shared connections (get-lanes.ts), not each client's own.
   */
  sharedGets?: readonly string[];
  /** Patterns of the other GET routes (HttpServer.otherGets): a path they could take is not shared. */
  otherGets?: readonly string[];
  /** How many shared connections at most; default 2 (fewer lanes, bigger batches). */
  lanes?: number;
  /** A client that has only used the lanes is closed after this long idle; default 10 s, as uWS. */
  idleTimeoutMs?: number;
}

export interface HeaderProxy {
  readonly port: number;
  /**
   * Stops accepting at once and ends idle clients; a client with a request up keeps its
   * connection until that answer is passed on (then it is ended), for up to `graceMs` (default 0),
   * after which every connection left is dropped.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export function startHeaderProxy(options: HeaderProxyOptions): Promise<HeaderProxy> {
  const settings: FrontSettings = {
    maxHeadBytes: options.maxHeadBytes ?? 64 * 1024,
    maxChunkedBytes: options.maxChunkedBytes ?? 8 * 1024 * 1024,
    maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY,
    target: options.target,
    sharedPath: options.sharedGets?.length ? sharedPathTest(options.sharedGets, options.otherGets ?? []) : undefined,
    idleTimeoutMs: options.idleTimeoutMs ?? 10_000,
    corsLine: options.corsOrigin === undefined ? '' : `access-control-allow-origin: ${options.corsOrigin}\r\n`,
    errorShape: options.errorShape ?? 'simple',
    badGateway: Buffer.alloc(0),
  };
  const badGateway = errorBody(settings.errorShape, 502, 'the server behind the front did not answer');
  settings.badGateway = Buffer.from(ownAnswer(502, 'Bad Gateway', badGateway, settings.corsLine), 'latin1');
  const lanes = settings.sharedPath === undefined ? undefined : new GetLanes(options.target, options.lanes);
  /** Each client's socket, and what ends it once its answer in flight is through. */
  const sockets = new Map<net.Socket, () => void>();
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    sockets.set(client, handle(client, settings, lanes));
    client.on('close', () => sockets.delete(client));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        close: ({ graceMs = 0 } = {}) =>
          new Promise<void>((done) => {
            // Clients are not dropped at once: one whose order is being placed would get no answer,
            // though the order goes through.
            let timer: NodeJS.Timeout | undefined;
            let finished = false;
            const finish = () => {
              if (finished) return;
              finished = true;
              clearTimeout(timer);
              for (const socket of sockets.keys()) socket.destroy();
              lanes?.close();
              done();
            };
            // Called once every client connection is closed.
            server.close(finish);
            for (const drain of sockets.values()) drain();
            if (sockets.size > 0) timer = setTimeout(finish, graceMs);
          }),
      });
    });
  });
}

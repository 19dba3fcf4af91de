// A TCP link to a test database's Postgres that a test joins up itself, to hold up or cut what
// passes (a connection lost mid-statement, an answer that never arrives).
import net from 'node:net';
import { connectPostgres, type PostgresOptions, type Sql } from '@pmx/db';

export interface PgRelay {
  /** The same database through the link. */
  url: string;
  close(): void;
  /** Listens again on the same port after close() (Postgres reachable again). */
  reopen(): Promise<void>;
}

/** Each connection to the link: `wire` gets the client's socket and the one to Postgres, and joins them. */
export async function relayTo(url: string, wire: (client: net.Socket, server: net.Socket) => void): Promise<PgRelay> {
  const target = new URL(url);
  const relay = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, server]) socket.on('error', () => {});
    wire(client, server);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as net.AddressInfo).port;
  const through = new URL(url);
  through.host = `127.0.0.1:${port}`;
  return {
    url: through.href,
    close: () => relay.close(),
    reopen: () => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve)),
  };
}

// A write's answer: CommandComplete ("INSERT 0 1", an upsert's too, "DELETE 1", or a
// transaction's "COMMIT"), then ReadyForQuery with status I (idle: no transaction open, so the
// write is committed; inside a transaction the status is T).
const COMMITTED_WRITE = /(?:INSERT 0 1|DELETE 1|COMMIT)\0[^]*Z\0\0\0\x05I/;

export interface CuttingRelay extends PgRelay {
  /** Cut the connection whose answer brings the next committed insert or delete, before that answer passes; then `after`. */
  cutNextCommit(after?: () => void): void;
  /** Cut every connection through the link now. */
  cutAll(): void;
  /** How many commits were cut so far. */
  cuts(): number;
}

/** A link to `url`'s Postgres that loses answers on cue: a connection cut right after a commit. */
export async function cuttingRelay(url: string): Promise<CuttingRelay> {
  let cut: (() => void) | undefined;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const relay = await relayTo(url, (client, server) => {
    sockets.add(client).add(server);
    client.pipe(server);
    let seen = '';
    server.on('data', (chunk: Buffer) => {
      if (cut !== undefined) {
        seen += chunk.toString('latin1');
        if (COMMITTED_WRITE.test(seen)) {
          const after = cut;
          cut = undefined;
          cuts++;
          client.destroy();
          server.destroy();
          after();
          return;
        }
      }
      client.write(chunk);
    });
    server.on('end', () => client.end());
    for (const socket of [client, server]) socket.on('close', () => sockets.delete(socket));
    client.on('close', () => server.destroy());
  });
  return {
    ...relay,
    cutNextCommit: (after = () => {}) => {
      cut = after;
    },
    cutAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    cuts: () => cuts,
  };
}

/**
 * A pool of at most `max` connections to `url`'s Postgres through a cuttingRelay, for `run`; both
 * closed after it.
 */
export async function withCuttingLink<T>(
  url: string,
  run: (link: { sql: Sql; relay: CuttingRelay }) => Promise<T>,
  options: PostgresOptions = { max: 1 },
): Promise<T> {
  const relay = await cuttingRelay(url);
  const sql = connectPostgres(relay.url, options);
  try {
    return await run({ sql, relay });
  } finally {
    await sql.end({ timeout: 1 });
    relay.close();
  }
}

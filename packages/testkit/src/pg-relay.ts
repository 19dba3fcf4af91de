// A TCP link to a test database's Postgres that a test joins up itself, to hold up or cut what
// passes (a connection lost mid-statement, an answer that never arrives).
import net from 'node:net';

export interface PgRelay {
  /** The same database through the link. */
  url: string;
  close(): void;
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
  const through = new URL(url);
  through.host = `127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
  return { url: through.href, close: () => relay.close() };
}

// A TCP link to a server (Redis, Postgres) that a test can make hang: while held, what clients
// send is kept back and nothing is answered, as from a server that stopped (SIGSTOP, a black-holed
// network); released, what was kept back goes on, as from one that resumed.
import type net from 'node:net';
import { relayTo, type PgRelay } from './pg-relay.ts';

export interface HoldingRelay extends PgRelay {
  hold(): void;
  release(): void;
}

export async function holdingRelay(url: string): Promise<HoldingRelay> {
  let held = false;
  const links: { client: net.Socket; server: net.Socket; kept: Buffer[] }[] = [];
  const relay = await relayTo(url, (client, server) => {
    const link = { client, server, kept: [] as Buffer[] };
    links.push(link);
    client.on('data', (chunk: Buffer) => (held ? link.kept.push(chunk) : server.write(chunk)));
    server.pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
  });
  return {
    ...relay,
    hold: () => (held = true),
    release() {
      held = false;
      for (const link of links) for (const chunk of link.kept.splice(0)) link.server.write(chunk);
    },
  };
}

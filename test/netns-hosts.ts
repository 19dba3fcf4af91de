// Hosts for a multi-host test on one machine: each a Linux network namespace with its own address
// on a bridge (`ip netns`, veth pairs; iproute2), so the cluster's traffic crosses interfaces as
// between machines. Postgres and Redis stay on this machine's loopback; a TCP relay on the
// bridge's address carries each to them. Made and removed by the test. Where namespaces cannot be
// made (no root, no iproute2), `makeHosts` says why and gives loopback addresses instead
// (127.0.0.x, one per host), the same test over loopback.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import net from 'node:net';
import type { Spawner } from './child-processes.ts';

export interface Hosts {
  /** 'netns' when each host is a namespace, 'loopback' when they are loopback addresses. */
  kind: 'netns' | 'loopback';
  /** Why namespaces were not used (the failing command's error), when kind is 'loopback'. */
  why?: string;
  /** Host i's address. */
  address(i: number): string;
  /** Where a host reaches this machine's loopback service on `port` (a relay on the bridge). */
  reach(port: number): Promise<string>;
  /** Starts processes on host i. */
  on(i: number): Spawner;
  remove(): Promise<void>;
}

function ip(args: string[]): void {
  const run = spawnSync('ip', args, { encoding: 'utf8' });
  if (run.error !== undefined) throw new Error(`ip ${args.join(' ')}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`ip ${args.join(' ')}: ${run.stderr.trim()}`);
}

/** A relay on `host`:any port to 127.0.0.1:`port`, for hosts that cannot reach this loopback. */
async function relay(host: string, port: number, servers: net.Server[]): Promise<string> {
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  return `${host}:${(server.address() as net.AddressInfo).port}`;
}

export async function makeHosts(count: number): Promise<Hosts> {
  const tag = randomBytes(2).toString('hex');
  const subnet = `10.${200 + randomInt(50)}.${randomInt(250)}`;
  const bridge = `pmxbr${tag}`;
  const names = Array.from({ length: count }, (_, i) => `pmx${tag}-${i}`);
  const relays: net.Server[] = [];
  const made: string[] = [];
  try {
    ip(['link', 'add', bridge, 'type', 'bridge']);
    made.push(bridge);
    ip(['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    for (const [i, name] of names.entries()) {
      ip(['netns', 'add', name]);
      made.push(name);
      const outside = `pmx${tag}v${i}`;
      ip(['link', 'add', outside, 'type', 'veth', 'peer', 'name', `pmx${tag}p${i}`]);
      ip(['link', 'set', `pmx${tag}p${i}`, 'netns', name]);
      ip(['link', 'set', outside, 'master', bridge]);
      ip(['link', 'set', outside, 'up']);
      ip(['-n', name, 'link', 'set', `pmx${tag}p${i}`, 'name', 'eth0']);
      ip(['-n', name, 'addr', 'add', `${subnet}.${10 + i}/24`, 'dev', 'eth0']);
      ip(['-n', name, 'link', 'set', 'eth0', 'up']);
      ip(['-n', name, 'link', 'set', 'lo', 'up']);
    }
  } catch (error) {
    for (const thing of made.reverse()) {
      if (thing === bridge) spawnSync('ip', ['link', 'del', bridge]);
      else spawnSync('ip', ['netns', 'del', thing]);
    }
    return loopbackHosts(error instanceof Error ? error.message : String(error));
  }
  return {
    kind: 'netns',
    address: (i) => `${subnet}.${10 + i}`,
    reach: (port) => relay(`${subnet}.1`, port, relays),
    on: (i) => (command, args, options) =>
      spawn('ip', ['netns', 'exec', names[i]!, command, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] }),
    async remove() {
      for (const server of relays) server.close();
      for (const name of names) spawnSync('ip', ['netns', 'del', name]);
      spawnSync('ip', ['link', 'del', bridge]);
    },
  };
}

function loopbackHosts(why: string): Hosts {
  const base = 10 + randomInt(200);
  return {
    kind: 'loopback',
    why,
    address: (i) => `127.0.${base}.${10 + i}`,
    reach: async (port) => `127.0.0.1:${port}`,
    on: () => (command, args, options) => spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }),
    async remove() {},
  };
}

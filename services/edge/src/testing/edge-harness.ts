// Test-only: HAProxy with the edge's rendered config in front of services a test started, on
// ephemeral ports. The ports are opened here and handed to HAProxy as open sockets (bind fd@N),
// so no other process can take one between choosing it and binding it.

import { type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createTempDir } from '@pmx/testkit';
import { loadEdgeConfig } from '../config.ts';
import { checkConfig, haproxyBinary, runHaproxy } from '../haproxy.ts';
import { renderEdgeConfig } from '../render.ts';

export interface EdgeHarness {
  /** Where clients reach each service through the edge. */
  clobUrl: string;
  catalogUrl: string;
  dataUrl: string;
  /** The operator port (/metrics, /stats). */
  statsUrl: string;
  /** The HAProxy process (its CPU time is the edge's cost). */
  pid: number;
  close(): Promise<void>;
}

async function listeningSocket(): Promise<{ server: net.Server; fd: number; port: number }> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, backlog: 1024 }, resolve);
  });
  const fd = (server as unknown as { _handle: { fd: number } })._handle.fd;
  return { server, fd, port: (server.address() as net.AddressInfo).port };
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * `env`: the edge's settings, e.g. PMX_CLOB_SOCKET of the clob under test and small caps. A service
 * whose socket is not given is reached at a path nothing listens on (503).
 */
export async function startEdge(env: Record<string, string> = {}): Promise<EdgeHarness> {
  const dir = await createTempDir('pmx-edge-');
  const sockets = await Promise.all([0, 1, 2, 3].map(() => listeningSocket()));
  let child: ChildProcess | undefined;
  try {
    const config = loadEdgeConfig({
      PMX_CLOB_SOCKET: join(dir.path, 'absent-clob.sock'),
      PMX_CATALOG_SOCKET: join(dir.path, 'absent-catalog.sock'),
      PMX_DATA_SOCKET: join(dir.path, 'absent-data.sock'),
      PMX_EDGE_LOG_LEVEL: 'err',
      ...env,
      PMX_EDGE_RUN_DIR: dir.path,
    });
    // HAProxy gets the sockets as its fds 3 to 6, in the order of `stdio` below.
    const text = renderEdgeConfig(config, { clob: 'fd@3', catalog: 'fd@4', data: 'fd@5', stats: 'fd@6' });
    const path = join(dir.path, 'haproxy.cfg');
    writeFileSync(path, text);
    const binary = haproxyBinary(config.haproxy);
    checkConfig(
      binary,
      path,
      sockets.map((s) => s.fd),
    );
    const started = runHaproxy(binary, path, ['ignore', 'ignore', 'pipe', ...sockets.map((s) => s.fd)]);
    child = started;
    running.add(started);
    let stderr = '';
    started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    // HAProxy holds copies of the sockets now; this process lets go of its own.
    for (const socket of sockets) socket.server.close();
    const [clob, catalog, data, stats] = sockets.map((s) => `http://127.0.0.1:${s.port}`) as [
      string,
      string,
      string,
      string,
    ];
    for (let attempt = 0; ; attempt++) {
      if (started.exitCode !== null) throw new Error(`edge: HAProxy exited at start: ${stderr}`);
      const ready = await fetch(`${stats}/metrics`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (attempt > 100) throw new Error(`edge: HAProxy did not answer on its operator port: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return {
      clobUrl: clob,
      catalogUrl: catalog,
      dataUrl: data,
      statsUrl: stats,
      pid: started.pid!,
      async close() {
        started.kill('SIGTERM');
        await exited;
        running.delete(started);
        await dir.remove();
      },
    };
  } catch (error) {
    for (const socket of sockets) socket.server.close();
    child?.kill('SIGKILL');
    if (child !== undefined) running.delete(child);
    await dir.remove();
    throw error;
  }
}

// Puts a server on its public port: uWS itself, or (by default) the header-normalising front with
// uWS behind it, so clients may send the contract's SVC_X header names. uWS then listens on a Unix
// socket for the front and on a loopback TCP port for direct clients.
// A server behind the front should trust one more X-Forwarded-For hop (the front's): the front
// always appends the client's address, and reaches uWS over a Unix socket with no peer address.

import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeaderProxy } from './header-proxy.ts';
import { startHeaderProxyThread } from './header-proxy-thread.ts';
import type { HttpServer } from './http-server.ts';

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

const SOCKET_NAME = /^pmx-(\d+)-[0-9a-f]+\.sock$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Unix sockets left in the temp folder by front ends that were killed (SIGKILL skips close). */
async function removeStaleSockets(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = SOCKET_NAME.exec(name)?.[1];
      // Best effort: one we may not remove (another user's, in a sticky /tmp) must not stop the start.
      if (pid !== undefined && !alive(Number(pid))) await rm(join(tmpdir(), name), { force: true }).catch(() => {});
    }),
  );
}

export async function serve(server: HttpServer, options: ServeOptions): Promise<Served> {
  if (!options.headerCompat) {
    const listening = server.listen(options.port, options.host);
    return { host: options.host, port: listening.port, directPort: listening.port, close: (o) => listening.close(o) };
  }
  // The front reaches uWS over a Unix socket (≈ 30 % more requests/s through the front than
  // over loopback TCP, measured on GET /book); uWS's own TCP port stays for direct clients.
  await removeStaleSockets();
  const unixPath = join(tmpdir(), `pmx-${process.pid}-${randomBytes(6).toString('hex')}.sock`);
  const listening = server.listen(options.directPort ?? 0, '127.0.0.1', { unixPath });
  const removeSocket = () => rm(unixPath, { force: true });
  let front: HeaderProxy;
  try {
    front = await startHeaderProxyThread({
      host: options.host,
      port: options.port,
      target: { path: unixPath },
      maxBodyBytes: server.maxBodyBytes,
      corsOrigin: server.corsOrigin,
      errorShape: server.errorShape,
      sharedGets: server.immediateGets,
      otherGets: server.otherGets,
    });
  } catch (error) {
    await listening.close({ graceMs: 0 });
    await removeSocket();
    throw error;
  }
  return {
    host: options.host,
    port: front.port,
    directPort: listening.port,
    // Both ports stop accepting at once; then the front, with the grace (its clients' answers in
    // flight still come from uWS, over the Unix socket), then uWS with the same grace.
    async close(o) {
      listening.stopListening();
      await front.close(o);
      await listening.close(o);
      await removeSocket();
    },
  };
}

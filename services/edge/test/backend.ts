// Test-only: a small service behind the edge, on a Unix socket: it echoes what reached it (the
// headers, the client address it was given, the body) and counts the requests it saw.
import { join } from 'node:path';
import { createHttpServer, HttpError, type ListeningHttpServer, type Route } from '@pmx/http';
import { createTempDir, type TempDir } from '@pmx/testkit';

export interface Backend {
  socketPath: string;
  /** Paths of the requests that reached the service, in order. */
  seen: string[];
  close(): Promise<void>;
}

const echo =
  (seen: string[]): Route['handler'] =>
  (ctx) => {
    seen.push(`${ctx.method} ${ctx.path}`);
    return { body: { path: ctx.path, ip: ctx.ip, headers: ctx.headers, body: ctx.bodyText } };
  };

/** `shape`: the error shape of the service it stands for (simple for the clob, typed for the catalog). */
export async function startBackend(shape: 'simple' | 'typed' = 'simple'): Promise<Backend> {
  const dir: TempDir = await createTempDir('pmx-edge-backend-');
  const seen: string[] = [];
  const routes: Route[] = [
    ...(['GET', 'POST', 'DELETE'] as const).flatMap((method) =>
      ['/echo', '/book', '/markets', '/markets/:id', '/events', '/'].map((path) => ({
        method,
        path,
        handler: echo(seen),
      })),
    ),
    {
      // A trading write: 401 for a wrong signature, as level-2 auth answers, else accepted.
      method: 'POST',
      path: '/order',
      handler: (ctx) => {
        seen.push(`POST /order ${ctx.header('svc-api-key')}`);
        if (ctx.header('svc-signature') === 'wrong')
          throw new HttpError(401, 'SVC_SIGNATURE does not match the request');
        return { body: { success: true } };
      },
    },
    { method: 'DELETE', path: '/order', handler: () => ({ body: { canceled: [], not_canceled: {} } }) },
  ];
  const listening: ListeningHttpServer = createHttpServer({ routes, errorShape: shape, maxBodyBytes: 4096 }).listen(
    0,
    '127.0.0.1',
    { unixPath: join(dir.path, 'service.sock') },
  );
  return {
    socketPath: join(dir.path, 'service.sock'),
    seen,
    async close() {
      await listening.close({ graceMs: 100 });
      await dir.remove();
    },
  };
}

// Test-only: a loopback HTTP server that records every request (raw body bytes included) and
// answers from a route table, so tests can watch exactly what a real client sends.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Answers a request: JSON value (sent as JSON) and optional status. */
export type Route = (request: CapturedRequest) => { status?: number; json: unknown };

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const routes = new Map<string, Route>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const captured: CapturedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(captured);
      const route =
        routes.get(`${captured.method} ${captured.path}`) ??
        [...routes.entries()].find(
          ([key]) => key.endsWith('*') && `${captured.method} ${captured.path}`.startsWith(key.slice(0, -1)),
        )?.[1];
      const { status = 200, json } = route ? route(captured) : { status: 404, json: { error: 'not found' } };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

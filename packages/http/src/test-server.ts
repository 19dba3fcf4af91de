// Test helper: a server on 127.0.0.1 with an ephemeral port, so test files run in parallel.
import { createHttpServer, type HttpServerOptions, type ListeningHttpServer } from './http-server.ts';
import type { Locals } from './route.ts';

export interface TestServer {
  url: string;
  listening: ListeningHttpServer;
  close(): Promise<void>;
}

export function serveForTest<L extends Locals>(options: HttpServerOptions<L>): TestServer {
  const listening = createHttpServer(options).listen(0);
  return { url: `http://127.0.0.1:${listening.port}`, listening, close: () => listening.close({ graceMs: 100 }) };
}

/** fetch and read the body as JSON (or text when not JSON). */
export async function call(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

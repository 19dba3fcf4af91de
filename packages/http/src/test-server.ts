// Test helper: a server on 127.0.0.1 with an ephemeral port, so test files run in parallel; a raw
// HTTP/1.1 session on one connection.
import net from 'node:net';
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

/** The JSON body of a raw answer (head and body). */
export function bodyOfAnswer(answer: string): Record<string, unknown> {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
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

/**
 * One connection to 127.0.0.1:`port` sending `heads` (whole requests) one after another, each once
 * the answer before it is complete; resolves with the complete answers it got (fewer when the
 * connection closed or `giveUpMs` passed first).
 */
export function rawSession(port: number, heads: string[], giveUpMs = 2000): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const answers: string[] = [];
    let bytes = Buffer.alloc(0);
    const finish = () => {
      socket.destroy();
      resolve(answers);
    };
    const next = () => (answers.length < heads.length ? socket.write(heads[answers.length]!) : finish());
    socket.on('connect', next);
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const headEnd = bytes.indexOf('\r\n\r\n') + 4;
      const length = /\r\ncontent-length: (\d+)/i.exec(bytes.toString('latin1', 0, Math.max(0, headEnd)))?.[1];
      if (headEnd < 4 || length === undefined || bytes.length < headEnd + Number(length)) return;
      answers.push(bytes.toString('utf8', 0, headEnd + Number(length)));
      bytes = bytes.subarray(headEnd + Number(length));
      next();
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    setTimeout(finish, giveUpMs);
  });
}

// Test-only: raw HTTP/1.x over one TCP connection, for what fetch will not send (bad framing,
// pipelining, slow clients, another source address on loopback).
import net from 'node:net';

export interface RawResult {
  /** Everything the edge sent back, as latin1 text. */
  text: string;
  /** The complete answers in it, in order (framed by Content-Length). */
  answers: { status: number; head: string; body: string }[];
  /** Whether the edge closed the connection (rather than the client giving up). */
  closed: boolean;
  ms: number;
}

function parse(text: string): RawResult['answers'] {
  const answers: RawResult['answers'] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return answers;
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    answers.push({ status: Number(head.slice(9, 12)), head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

/**
 * Sends `parts` one after another, `gapMs` apart, and reads until the edge closes, `answers`
 * complete answers are in, or `waitMs` passes.
 */
export function raw(
  port: number,
  parts: (string | Buffer)[],
  options: { gapMs?: number; waitMs?: number; answers?: number; localAddress?: string } = {},
): Promise<RawResult> {
  const { gapMs = 0, waitMs = 3000, answers = Number.POSITIVE_INFINITY, localAddress } = options;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, answers: parse(text), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (parse(text).length >= answers) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        if (done) return;
        socket.write(part);
      }
    });
  });
}

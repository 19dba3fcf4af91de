// A thin TCP front for a uWS server: uWS 20.30 closes any request whose header names contain
// '_' (the contract's SVC_API_KEY, the official client's POLY_ADDRESS), so this listener rewrites
// '_' to '-' in header names and appends the client's address to X-Forwarded-For. It frames each
// request to find the next head: Content-Length bodies stream through, chunked bodies are
// decoded and forwarded with a Content-Length (uWS refuses chunk extensions). Ambiguous framing
// (repeated lengths, length with chunked) is refused, never guessed. Responses pass untouched,
// but are framed too: a client's pipelined request goes up only once the answer before it is
// through, because uWS drops a connection (and its pending answer) that pipelines behind an
// async handler.

import net from 'node:net';
import { ResponseRelay } from './response-relay.ts';

export interface HeaderProxyOptions {
  host?: string;
  port: number;
  /** The server behind: a TCP address, or a Unix socket (cheaper per request on one machine). */
  target: { host: string; port: number } | { path: string };
  /** Largest request head accepted; above it the connection gets 431. Default 64 KiB. */
  maxHeadBytes?: number;
  /** Largest chunked body decoded; above it the connection gets 413. Default 8 MiB. */
  maxChunkedBytes?: number;
  /**
   * The largest body the server behind accepts: a longer declared body is not forwarded, only its
   * head, which the server answers (413) and closes on cleanly. Forwarding it would make the
   * server close with bytes unread, and the reset can destroy its answer before the front reads it.
   */
  maxBodyBytes?: number;
}

export interface HeaderProxy {
  readonly port: number;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

type Framing = { kind: 'none' } | { kind: 'length'; remaining: number } | { kind: 'chunked' };

class FramingError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Rewrites one request head; returns it and how its body is framed. */
export function rewriteHead(head: string, clientIp: string): { head: string; framing: Framing } {
  const lines = head.split('\r\n');
  const out = [lines[0]!];
  let length: number | undefined;
  let chunked = false;
  let forwarded: string | undefined;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new FramingError(400, 'malformed header line');
    const name = line.slice(0, colon).replaceAll('_', '-');
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    if (lower === 'content-length') {
      if (length !== undefined || !/^\d{1,15}$/.test(value)) throw new FramingError(400, 'bad or repeated Content-Length');
      length = Number(value);
    } else if (lower === 'transfer-encoding') {
      if (chunked || value.toLowerCase() !== 'chunked') throw new FramingError(400, 'unsupported Transfer-Encoding');
      chunked = true;
      continue;
    } else if (lower === 'x-forwarded-for') {
      forwarded = forwarded === undefined ? value : `${forwarded}, ${value}`;
      continue;
    }
    out.push(`${name}: ${value}`);
  }
  if (chunked && length !== undefined) throw new FramingError(400, 'Content-Length with Transfer-Encoding');
  out.push(`x-forwarded-for: ${forwarded === undefined ? clientIp : `${forwarded}, ${clientIp}`}`);
  const framing: Framing = chunked ? { kind: 'chunked' } : length ? { kind: 'length', remaining: length } : { kind: 'none' };
  // A chunked body is forwarded decoded; its head gets the length once the body is complete.
  return { head: chunked ? out.join('\r\n') : `${out.join('\r\n')}\r\n\r\n`, framing };
}

/** Decodes a chunked body from a byte stream, bounded in size. */
class ChunkedBody {
  private state: 'size' | 'data' | 'data-crlf' | 'trailer' = 'size';
  private line = '';
  private remaining = 0;
  private readonly parts: Buffer[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  /** Consumes bytes of `input` from `start`; returns where it stopped and whether the body ended. */
  consume(input: Buffer, start: number): { end: number; done: boolean } {
    let i = start;
    while (i < input.length) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, input.length - i);
        this.parts.push(input.subarray(i, i + take));
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'data-crlf';
        continue;
      }
      const byte = input[i++]!;
      if (byte !== 0x0a) {
        if (byte !== 0x0d) this.line += String.fromCharCode(byte);
        if (this.line.length > 1024) throw new FramingError(400, 'chunk line too long');
        continue;
      }
      const line = this.line;
      this.line = '';
      if (this.state === 'size') {
        if (!/^[0-9a-fA-F]{1,8}(;.*)?$/.test(line.trim())) throw new FramingError(400, 'bad chunk size');
        const size = Number.parseInt(line, 16);
        this.total += size;
        if (this.total > this.limit) throw new FramingError(413, 'request body too large');
        if (size === 0) this.state = 'trailer';
        else {
          this.remaining = size;
          this.state = 'data';
        }
      } else if (this.state === 'data-crlf') {
        if (line !== '') throw new FramingError(400, 'bad chunk terminator');
        this.state = 'size';
      } else if (line === '') {
        return { end: i, done: true };
      }
    }
    return { end: i, done: false };
  }

  body(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * One client connection and its own connection to uWS. Requests go up one at a time: the next is
 * held, unread, until the answer to the one before has been passed on whole (response-relay.ts).
 */
function handle(client: net.Socket, options: Required<Pick<HeaderProxyOptions, 'maxHeadBytes' | 'maxChunkedBytes' | 'maxBodyBytes' | 'target'>>): void {
  const upstream = 'path' in options.target ? net.connect({ path: options.target.path }) : net.connect({ host: options.target.host, port: options.target.port, noDelay: true });
  client.setNoDelay(true);
  const clientIp = client.remoteAddress?.replace(/^::ffff:/, '') ?? '';
  let pending: Buffer = Buffer.alloc(0);
  let framing: Framing = { kind: 'none' };
  let chunked: ChunkedBody | undefined;
  let chunkedHead = '';
  let inHead = true;
  /** False while a declared body over the server's limit passes: it is read, not forwarded. */
  let forwardBody = true;
  // Once uWS has ended its side (e.g. after a 413 it closes), the rest of the request is dropped
  // and the client's socket ends after the answer is flushed, rather than being torn down.
  let upstreamEnded = false;
  /** A request has gone up and its answer is not yet passed on whole. */
  let awaiting = false;
  /** Answers can no longer be framed: requests go up as they come (and after a 101, unparsed). */
  let serialise = true;
  let passThrough = false;

  /** The answer in flight is through (or can no longer be followed): read the client on. */
  const release = () => {
    awaiting = false;
    client.resume();
    consume();
  };
  const relay = new ResponseRelay({
    write: (bytes) => client.write(bytes),
    complete: release,
    unframed: (upgraded) => {
      serialise = false;
      passThrough = upgraded;
      release();
    },
  });
  const fail = (status: number, message: string) => {
    const body = JSON.stringify({ error: message });
    const reason = status === 431 ? 'Request Header Fields Too Large' : status === 413 ? 'Payload Too Large' : 'Bad Request';
    client.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    upstream.destroy();
  };
  const send = (bytes: Buffer) => {
    if (upstreamEnded) return;
    if (bytes.length > 0 && !upstream.write(bytes)) {
      client.pause();
      upstream.once('drain', () => client.resume());
    }
  };
  /** A request head goes up; the next one waits for its answer. */
  const sendHead = (head: Buffer) => {
    awaiting = serialise;
    send(head);
  };

  /** Works through what the client sent, up to a request that must wait for an answer. */
  const consume = () => {
    try {
      const input = pending;
      pending = Buffer.alloc(0);
      let offset = 0;
      if (passThrough) return send(input);
      while (offset < input.length) {
        if (inHead) {
          if (awaiting) {
            pending = input.subarray(offset);
            client.pause();
            return;
          }
          const end = input.indexOf(HEAD_END, offset);
          if (end < 0) {
            if (input.length - offset > options.maxHeadBytes) return fail(431, 'request head too large');
            pending = input.subarray(offset);
            return;
          }
          if (end - offset > options.maxHeadBytes) return fail(431, 'request head too large');
          const rewritten = rewriteHead(input.toString('latin1', offset, end), clientIp);
          framing = rewritten.framing;
          forwardBody = framing.kind !== 'length' || framing.remaining <= options.maxBodyBytes;
          chunked = framing.kind === 'chunked' ? new ChunkedBody(options.maxChunkedBytes) : undefined;
          if (chunked === undefined) sendHead(Buffer.from(rewritten.head, 'latin1'));
          else chunkedHead = rewritten.head;
          inHead = framing.kind === 'none';
          offset = end + HEAD_END.length;
        } else if (framing.kind === 'length') {
          const take = Math.min(framing.remaining, input.length - offset);
          if (forwardBody) send(input.subarray(offset, offset + take));
          framing.remaining -= take;
          offset += take;
          if (framing.remaining === 0) inHead = true;
        } else {
          const { end, done } = chunked!.consume(input, offset);
          offset = end;
          if (done) {
            const body = chunked!.body();
            sendHead(Buffer.concat([Buffer.from(`${chunkedHead}\r\ncontent-length: ${body.length}\r\n\r\n`, 'latin1'), body]));
            inHead = true;
          }
        }
      }
    } catch (error) {
      if (error instanceof FramingError) fail(error.status, error.message);
      else throw error;
    }
  };

  client.on('data', (data: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, data]) : data;
    consume();
  });
  upstream.on('data', (data: Buffer) => {
    if (!relay.push(data)) {
      upstream.pause();
      client.once('drain', () => upstream.resume());
    }
  });
  upstream.on('end', () => {
    upstreamEnded = true;
    client.end();
  });
  const closeBoth = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', closeBoth);
  // uWS resets a connection it closes with a body still unread (after a 413): what it answered
  // before is already queued for the client, so end the client's side after it, not destroy it.
  upstream.on('error', () => {
    upstreamEnded = true;
    client.end();
  });
  // A client that ends its side has nothing more to send: requests still held are dropped (its
  // own socket ends with it, so their answers could not reach it).
  client.on('end', () => {
    pending = Buffer.alloc(0);
    upstream.end();
  });
  upstream.on('close', () => client.end());
  client.on('close', () => upstream.destroy());
}

export function startHeaderProxy(options: HeaderProxyOptions): Promise<HeaderProxy> {
  const settings = {
    maxHeadBytes: options.maxHeadBytes ?? 64 * 1024,
    maxChunkedBytes: options.maxChunkedBytes ?? 8 * 1024 * 1024,
    maxBodyBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY,
    target: options.target,
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    handle(client, settings);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

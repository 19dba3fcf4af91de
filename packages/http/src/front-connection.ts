// One client connection of the header front (header-proxy.ts): its requests framed and passed
// up one at a time, over the client's own connection to uWS or a shared lane, its answers passed
// back in order, and the front's own answers where uWS would stay silent (400, 408, 431, 501, 505).

import type net from 'node:net';
import { errorBody } from './error-shape.ts';
import { connectUpstream, type GetLanes, type LaneRequest } from './get-lanes.ts';
import type { HeaderProxyOptions } from './header-proxy.ts';
import { ChunkedBody, FramingError, rewriteHead, type Framing } from './request-framing.ts';
import { HEAD_END, ResponseRelay } from './response-relay.ts';

export type FrontSettings = Required<
  Pick<
    HeaderProxyOptions,
    'maxHeadBytes' | 'maxChunkedBytes' | 'maxBodyBytes' | 'target' | 'idleTimeoutMs' | 'errorShape'
  >
> & {
  sharedPath: ((path: string) => boolean) | undefined;
  /** `access-control-allow-origin: …\r\n`, or '' without CORS. */
  corsLine: string;
  badGateway: Buffer;
};

const CONTINUE = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
const REASONS: Record<number, string> = {
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
  505: 'HTTP Version Not Supported',
};

/** An answer of the front's own, which closes the connection. */
export function ownAnswer(status: number, reason: string, body: string, corsLine: string): string {
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${corsLine}connection: close\r\n\r\n${body}`;
}

/**
 * One client connection. A GET that may share (request-framing.ts) goes over the front's lanes;
 * anything else over the client's own connection to uWS, opened at its first such request, which
 * then carries the rest of the client's requests too. Either way requests go up one at a time:
 * the next is held, unread, until the answer to the one before has been passed on whole
 * (response-relay.ts), so answers keep the client's order.
 */
export function handle(client: net.Socket, options: FrontSettings, lanes: GetLanes | undefined): () => void {
  let upstream: net.Socket | undefined;
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

  /**
   * Ends the client's side. A client that never closes its own would keep the socket half-open
   * for ever (Node frees it only once both sides are closed), so it is destroyed after the idle time.
   */
  let closing: NodeJS.Timeout | undefined;
  /**
   * The front has ended the client's side: what the client still sends is read and dropped, never
   * passed up, since its answer could not reach it: a request that crosses the front's end (a bot
   * sending its next order as it reads an answer, during a stop) would be placed unanswered.
   */
  let ended = false;
  const endClient = (last?: string | Buffer) => {
    // Gone already (the client dropped, and its upstream closes after), or ended: nothing to add.
    if (client.destroyed || !client.writable) return;
    ended = true;
    pending = Buffer.alloc(0);
    if (last === undefined) client.end();
    else client.end(last);
    closing ??= setTimeout(() => client.destroy(), options.idleTimeoutMs).unref();
  };
  /** The client has ended its side (half-close): its complete requests are still answered. */
  let clientEnded = false;
  /** The front is closing: the answer in flight is passed on, then the connection ends. */
  let draining = false;
  /** The answer in flight is through (or can no longer be followed): read the client on. */
  const release = () => {
    awaiting = false;
    if (draining) return endClient();
    client.resume();
    consume();
    if (clientEnded) finishEnded();
  };
  /**
   * After a half-close, once nothing the client sent can still be answered: a request cut short
   * by the end (a body that will never complete) ends the connection to uWS, which closes, and
   * the client's side ends with it; otherwise the client's side ends once the last answer is out.
   */
  const finishEnded = () => {
    if (!inHead) {
      if (upstream === undefined) endClient();
      else upstream.end();
    } else if (!awaiting) endClient();
  };
  /**
   * A request must arrive whole within the idle time, timed from its first byte: its head, and a
   * chunked body, which the front holds (no connection to uWS yet, so uWS's own timeout never sees
   * the client). Bytes dribbled one every few seconds kept a connection and its buffer for ever.
   */
  let deadline: NodeJS.Timeout | undefined;
  /** When the request now arriving last made progress (performance.now()), while `deadline` is set. */
  let arrivingSince = 0;
  /** Bytes of an answer to the request now in hand have gone to the client (uWS may answer before a body is in). */
  let relayed = false;
  const arriving = () => {
    if (deadline !== undefined) return;
    arrivingSince = performance.now();
    deadline = setTimeout(late, options.idleTimeoutMs).unref();
  };
  const arrived = () => {
    clearTimeout(deadline);
    deadline = undefined;
  };
  /** The request did not arrive in time: 408, unless it has been answered already (then only the end). */
  const late = () => {
    if (!relayed) return fail(408, 'the request did not arrive in time');
    arrived();
    endClient();
    upstream?.destroy();
  };
  /**
   * uWS times out a body with a length that stops coming (its timer runs 8–12 s) and closes
   * without a word; the front answers 408 for it then, as for a late head, so the client is not
   * left without an answer.
   */
  const upstreamGone = () => {
    if (
      deadline !== undefined &&
      !inHead &&
      framing.kind === 'length' &&
      performance.now() - arrivingSince >= options.idleTimeoutMs / 2
    )
      late();
    else endClient();
  };
  const fail = (status: number, message: string) => {
    arrived();
    endClient(
      ownAnswer(
        status,
        REASONS[status] ?? 'Bad Request',
        errorBody(options.errorShape, status, message),
        options.corsLine,
      ),
    );
    upstream?.destroy();
  };
  const ownUpstream = (): net.Socket => {
    if (upstream !== undefined) return upstream;
    const socket = connectUpstream(options.target);
    const ownRelay = new ResponseRelay({
      write: (bytes) => {
        relayed = true;
        return client.write(bytes);
      },
      complete: release,
      unframed: (upgraded) => {
        serialise = false;
        passThrough = upgraded;
        release();
      },
    });
    socket.on('data', (data: Buffer) => {
      if (!ownRelay.push(data)) {
        socket.pause();
        client.once('drain', () => socket.resume());
      }
    });
    socket.on('end', () => {
      upstreamEnded = true;
      upstreamGone();
    });
    // uWS resets a connection it closes with a body still unread (after a 413): what it answered
    // before is already queued for the client, so end the client's side after it, not destroy it.
    socket.on('error', () => {
      upstreamEnded = true;
      upstreamGone();
    });
    socket.on('close', upstreamGone);
    return (upstream = socket);
  };
  const send = (bytes: Buffer) => {
    if (upstreamEnded) return;
    const socket = ownUpstream();
    if (bytes.length > 0 && !socket.write(bytes)) {
      client.pause();
      socket.once('drain', () => client.resume());
    }
  };
  /** A request head goes up; the next one waits for its answer. */
  const sendHead = (head: Buffer) => {
    awaiting = serialise;
    send(head);
  };
  /** A GET on a lane: at most one per client at a time, so one object serves them all. */
  let flowing = true;
  const shared: LaneRequest = {
    head: Buffer.alloc(0),
    write: (bytes) => {
      if (client.writable) flowing = client.write(bytes);
    },
    // A client slow to read gets its next request read only once it has taken this answer.
    done: () => (flowing ? release() : client.once('drain', release)),
    fail: (partial) => {
      if (partial) client.destroy();
      else endClient(options.badGateway);
    },
  };
  /** A GET goes over a lane; the client's next request waits until its answer is written. */
  const sendShared = (head: Buffer) => {
    awaiting = true;
    flowing = true;
    shared.head = head;
    lanes!.send(shared);
  };

  /** Works through what the client sent, up to a request that must wait for an answer. */
  const consume = () => {
    if (ended) return;
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
            arriving();
            return;
          }
          if (end - offset > options.maxHeadBytes) return fail(431, 'request head too large');
          // Once a client has its own connection, all its requests keep to it: uWS then sees the
          // client's whole traffic on it, and its idle timeout means the client's idleness.
          const sharedPath = upstream === undefined ? options.sharedPath : undefined;
          const rewritten = rewriteHead(input.toString('latin1', offset, end), clientIp, sharedPath);
          relayed = false;
          offset = end + HEAD_END.length;
          if (rewritten.shareable) {
            arrived();
            sendShared(Buffer.from(rewritten.head, 'latin1'));
            continue;
          }
          framing = rewritten.framing;
          forwardBody = framing.kind !== 'length' || framing.remaining <= options.maxBodyBytes;
          chunked =
            framing.kind === 'chunked' ? new ChunkedBody(options.maxChunkedBytes, options.maxBodyBytes) : undefined;
          if (chunked === undefined) {
            // A body with a length goes up as it comes; one that runs short must come within the
            // idle time (below).
            arrived();
            sendHead(Buffer.from(rewritten.head, 'latin1'));
          } else {
            arriving();
            chunkedHead = rewritten.head;
            if (rewritten.continueNow) client.write(CONTINUE);
          }
          inHead = framing.kind === 'none';
        } else if (framing.kind === 'length') {
          const take = Math.min(framing.remaining, input.length - offset);
          if (forwardBody) send(input.subarray(offset, offset + take));
          framing.remaining -= take;
          offset += take;
          if (framing.remaining === 0) {
            inHead = true;
            arrived();
          }
        } else {
          const { end, done } = chunked!.consume(input, offset);
          offset = end;
          if (done) {
            arrived();
            // A body over the server's limit goes up as its length alone, as a declared one does:
            // the server answers 413 from the head and closes with nothing left unread.
            const size = chunked!.size;
            const head = Buffer.from(`${chunkedHead}\r\ncontent-length: ${size}\r\n\r\n`, 'latin1');
            sendHead(size > options.maxBodyBytes ? head : Buffer.concat([head, chunked!.body()]));
            inHead = true;
          }
        }
      }
      // A body with a length not all here yet must keep coming: its idle time runs from now (no
      // timer for one that came whole with its head, as an order's does). Timed from its head, a
      // steady upload longer than the idle time would get 408 where uWS serves it.
      if (!inHead && framing.kind === 'length' && forwardBody) {
        arrived();
        arriving();
      }
    } catch (error) {
      if (error instanceof FramingError) fail(error.status, error.message);
      else throw error;
    }
  };

  // A client on the lanes only has no connection of its own for uWS to time out: the front does,
  // after the same idle time. One that has not taken an answer for that long (its socket's buffer
  // full, nothing written since) is cut off, as uWS cuts off a slow reader.
  // Every idle spell, not the first only: `setTimeout`'s own callback is a once-listener, so with
  // it a client idle once (on its own connection, or while its answer was being made) could
  // afterwards stop reading and be held for ever.
  client.setTimeout(options.idleTimeoutMs);
  client.on('timeout', () => {
    if (client.writableLength > 0) client.destroy();
    // A request still arriving gets its 408 here: this timer and the request's deadline run out
    // together when the request's first bytes came with the connection, and this one, if it fires
    // first, must not end the connection without the answer.
    else if (deadline !== undefined) late();
    else if (upstream === undefined && !awaiting) endClient();
  });
  client.on('data', (data: Buffer) => {
    if (ended) return;
    pending = pending.length > 0 ? Buffer.concat([pending, data]) : data;
    consume();
  });
  client.on('error', () => {
    client.destroy();
    upstream?.destroy();
  });
  // A client that ends its side (half-close, as `nc -N` or a script's shutdown(SHUT_WR) do) still
  // gets the answers to the requests it sent whole: the socket is half-open (allowHalfOpen), and
  // the front ends its side after them: ending with the client's side, the socket would leave such
  // a client never hearing that its order was placed.
  client.on('end', () => {
    clientEnded = true;
    finishEnded();
  });
  client.on('close', () => {
    clearTimeout(closing);
    clearTimeout(deadline);
    upstream?.destroy();
  });
  return () => {
    draining = true;
    if (!awaiting) endClient();
  };
}

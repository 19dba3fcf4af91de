// Shared upstream connections ("lanes") for the front's GETs on immediate routes (routes that
// answer inside the uWS callback; RouteOptions.immediate). Many clients' GETs go to uWS pipelined
// over a few keep-alive connections, and those read in one event-loop turn leave in one write;
// uWS answers the batch in one pass. Through a connection per client, every GET cost the front a
// write and a read of its own, the front's main cost. Only immediate routes may share: uWS 20.30
// drops a connection whose pipelined request arrives while an earlier answer is pending, with
// every answer queued on it.
// Answers are framed by Content-Length (uWS always sends one) and passed to the client that asked,
// in the lane's order. A GET caught on a lane that closes before any of its answer was passed on
// is sent again on another lane (GETs are safe to repeat), up to MAX_ATTEMPTS times.
import net from 'node:net';
import { HEAD_END, contentLength, hasHeaderValue, statusCode } from './response-relay.ts';

export interface LaneRequest {
  /** The request head, ready for uWS (read when the request is sent, and again on a retry). */
  head: Buffer;
  /** Bytes of the answer, in order, as they arrive (a small answer arrives in one piece). */
  write(bytes: Buffer): void;
  /** The answer has been passed on whole. */
  done(): void;
  /** No answer: every attempt failed (`partial` false), or the lane broke mid-answer (true). */
  fail(partial: boolean): void;
}

export type LaneTarget = { host: string; port: number } | { path: string };

/** A connection to the server behind: its Unix socket, or TCP without Nagle's delay. */
export function connectUpstream(target: LaneTarget): net.Socket {
  return 'path' in target
    ? net.connect({ path: target.path })
    : net.connect({ host: target.host, port: target.port, noDelay: true });
}

const MAX_ATTEMPTS = 3;
const MAX_HEAD = 16 * 1024;
const CONNECTION_CLOSE = Buffer.from('\r\nconnection:');

interface Flight {
  readonly request: LaneRequest;
  attempts: number;
}

class Lane {
  readonly flights: Flight[] = [];
  /** Takes no more requests: closing, told to close, or broken. */
  retired = false;
  private readonly socket: net.Socket;
  private partial: Buffer = Buffer.alloc(0);
  /** Body bytes still due of the answer at flights[0]; -1 while reading a head. */
  private remaining = -1;
  /** Some of flights[0]'s answer has been passed on (it can no longer be sent again). */
  private started = false;
  private corked = false;
  /** When the lane last sent a request to an idle server or read an answer's bytes. */
  lastProgress = Date.now();
  /** The answer in progress ends the lane (`Connection: close`). */
  private lastAnswer = false;

  constructor(
    target: LaneTarget,
    private readonly onClosed: (lane: Lane, orphans: Flight[], broken: Flight | undefined) => void,
  ) {
    this.socket = connectUpstream(target);
    this.socket.on('data', (data: Buffer) => this.read(data));
    this.socket.on('error', () => this.socket.destroy());
    this.socket.on('close', () => this.closed());
  }

  send(flight: Flight): void {
    if (this.flights.length === 0) this.lastProgress = Date.now();
    this.flights.push(flight);
    if (!this.corked) {
      // Every GET read in this turn's I/O callbacks goes up in one write.
      this.corked = true;
      this.socket.cork();
      setImmediate(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(flight.request.head);
  }

  destroy(): void {
    this.retired = true;
    this.socket.destroy();
  }

  private read(data: Buffer): void {
    this.lastProgress = Date.now();
    let input = data;
    if (this.partial.length > 0) {
      input = Buffer.concat([this.partial, data]);
      this.partial = Buffer.alloc(0);
    }
    let offset = 0;
    while (offset < input.length) {
      const flight = this.flights[0];
      if (flight === undefined) return this.destroy(); // an answer nobody asked for
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, input.length - offset);
        flight.request.write(input.subarray(offset, offset + take));
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0) this.answered();
        continue;
      }
      const end = input.indexOf(HEAD_END, offset);
      if (end < 0) {
        if (input.length - offset > MAX_HEAD) return this.destroy();
        this.partial = Buffer.from(input.subarray(offset));
        return;
      }
      const status = statusCode(input, offset);
      const length =
        status === 204 || status === 304
          ? 0
          : status >= 100 && status < 200
            ? undefined
            : contentLength(input, offset, end);
      // Interim, switching or unframed answers are not what an immediate GET gets: drop the lane.
      if (length === undefined) return this.destroy();
      this.lastAnswer = hasHeaderValue(input, offset, end, CONNECTION_CLOSE, 'close');
      const bodyStart = end + HEAD_END.length;
      const take = Math.min(length, input.length - bodyStart);
      this.started = true;
      flight.request.write(input.subarray(offset, bodyStart + take));
      this.remaining = length - take;
      offset = bodyStart + take;
      if (this.remaining === 0) this.answered();
    }
  }

  private answered(): void {
    this.remaining = -1;
    this.started = false;
    this.flights.shift()!.request.done();
    if (this.lastAnswer) this.retired = true;
    if (this.retired && this.flights.length === 0) this.socket.end();
  }

  private closed(): void {
    this.retired = true;
    const broken = this.started ? this.flights.shift() : undefined;
    this.onClosed(this, this.flights.splice(0), broken);
  }
}

/** A few lanes to one uWS target, opened as needed; a GET goes to the least busy one. */
export class GetLanes {
  private readonly lanes: Lane[] = [];
  private closing = false;
  private readonly watchdog: NodeJS.Timeout;

  /**
   * @param stallMs a lane with GETs out and no answer byte for this long is dropped (its GETs go
   *   again): immediate routes answer in microseconds, so a silent lane is a stuck one (uWS 20.30
   *   says nothing at all to some malformed requests; the front keeps those off the lanes).
   */
  constructor(
    private readonly target: LaneTarget,
    private readonly maxLanes = 2,
    stallMs = 5_000,
  ) {
    this.watchdog = setInterval(
      () => {
        const now = Date.now();
        for (const lane of this.lanes) if (lane.flights.length > 0 && now - lane.lastProgress > stallMs) lane.destroy();
      },
      Math.max(10, stallMs / 5),
    );
    this.watchdog.unref();
  }

  send(request: LaneRequest): void {
    this.dispatch({ request, attempts: 0 });
  }

  /** Drops every lane (the front is closing, and its clients with it). */
  close(): void {
    this.closing = true;
    clearInterval(this.watchdog);
    for (const lane of this.lanes.splice(0)) lane.destroy();
  }

  private dispatch(flight: Flight): void {
    if (this.closing || ++flight.attempts > MAX_ATTEMPTS) return flight.request.fail(false);
    let best: Lane | undefined;
    for (const lane of this.lanes)
      if (!lane.retired && (best === undefined || lane.flights.length < best.flights.length)) best = lane;
    if (best === undefined || (best.flights.length > 0 && this.lanes.length < this.maxLanes)) {
      best = new Lane(this.target, (lane, orphans, broken) => this.closed(lane, orphans, broken));
      this.lanes.push(best);
    }
    best.send(flight);
  }

  private closed(lane: Lane, orphans: Flight[], broken: Flight | undefined): void {
    const at = this.lanes.indexOf(lane);
    if (at >= 0) this.lanes.splice(at, 1);
    broken?.request.fail(true);
    for (const flight of orphans) this.dispatch(flight);
  }
}

// The unpaced order load: a lean HTTP/1.1 client on raw keep-alive sockets. Every request is
// serialised to bytes before the clock starts, each connection writes its next request as soon as
// the previous answer is complete, and an answer is framed by its Content-Length (uWS always
// sends one; anything else fails the run). On this 2-core machine the client shares the CPU with
// the server, so its cost is part of what is measured: autocannon, feeding each request its own
// body, spent ≈ 3× more per request than this, which the server then did not get.
import net from 'node:net';
import type { PreparedRequest } from './signed-orders.ts';

export interface RawLoadJob {
  url: string;
  requests: PreparedRequest[];
  connections: number;
  durationMs: number;
  /** Requests per second to pace at; 0 (the default) sends as fast as answers come back. */
  ratePerSecond?: number;
  /** Sent first and not counted; default 0. */
  warmupMs?: number;
}

export interface RawLoadResult {
  sent: number;
  /** Counted answers that are a 200 refusing nothing (`"success":false` nowhere in the body). */
  ok: number;
  /** Counted answers of another status, or refusing some of what they carried. */
  rejected: number;
  /** Orders accepted across the counted 200 answers (`"success":true` items; up to 15 a batch). */
  acceptedItems: number;
  /** Requests lost to a failed connection, or never sent because every connection failed. */
  errors: number;
  seconds: number;
  /** `ok` answers per second. */
  rps: number;
  /** Every counted answer's latency; a request lost to a failed connection counts until the failure. */
  latenciesMs: number[];
  /**
   * Paced: how late the client itself put each counted request on the wire (its timer and event
   * loop; part of the latency above, since that runs from the due time). Empty when unpaced.
   */
  sendLagsMs: number[];
  firstRejection: string;
  /** This client's own CPU (user + system) from the first request to the last answer, in µs. */
  cpuUs: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

function serialise(request: PreparedRequest, host: string): Buffer {
  const body = Buffer.from(request.body);
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([
    Buffer.from(
      `POST ${request.path} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-length: ${body.length}\r\n\r\n`,
      'latin1',
    ),
    body,
  ]);
}

/** Status and body length of a response head, or an Error for framing this client does not take. */
function parseHead(head: string): { status: number; length: number } | Error {
  const status = Number(head.slice(9, 12));
  const match = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (!head.startsWith('HTTP/1.1 ') || !Number.isInteger(status) || match === null)
    return new Error(`unframed response: ${head.slice(0, 200)}`);
  return { status, length: Number(match[1]) };
}

/** One keep-alive connection: sends a request, calls back with the answer once it is complete. */
class RawConnection {
  private readonly socket: net.Socket;
  private pending: Buffer = Buffer.alloc(0);
  private expected: { status: number; length: number } | undefined;
  private headLength = 0;
  private closed = false;

  constructor(
    url: URL,
    private readonly onAnswer: (connection: RawConnection, status: number, body: string) => void,
    private readonly onFailure: (connection: RawConnection, reason: string) => void,
    onReady: (connection: RawConnection) => void,
  ) {
    this.socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on('connect', () => onReady(this));
    this.socket.on('data', (data: Buffer) => this.read(data));
    this.socket.on('error', (error) => this.fail(error.message));
    this.socket.on('close', () => this.fail('connection closed by the server'));
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.close();
    this.onFailure(this, reason);
  }

  private read(data: Buffer): void {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (this.expected === undefined) {
      const end = this.pending.indexOf(HEAD_END);
      if (end < 0) return;
      const head = parseHead(this.pending.toString('latin1', 0, end));
      if (head instanceof Error) return this.fail(head.message);
      this.expected = head;
      this.headLength = end + HEAD_END.length;
    }
    const end = this.headLength + this.expected.length;
    if (this.pending.length < end) return;
    const { status } = this.expected;
    const body = this.pending.toString('utf8', this.headLength, end);
    this.pending = this.pending.subarray(end);
    this.expected = undefined;
    this.onAnswer(this, status, body);
  }
}

/** How many of `total` paced requests are due `elapsedMs` in: request k is due at k/rate. */
export function dueCount(elapsedMs: number, ratePerSecond: number, total: number): number {
  return Math.min(total, Math.floor((elapsedMs / 1000) * ratePerSecond) + 1);
}

/**
 * Sends the prepared requests, each once, over `connections` keep-alive sockets for
 * `durationMs`. Unpaced (`ratePerSecond` 0), each connection sends its next request as soon as
 * its answer is complete. Paced, one scheduler makes each request due at its time and sends it
 * on an idle connection (or as soon as one frees up); latency runs from when it was due, so a
 * backlog counts against the server, not hidden by the client. Answers to requests due in the
 * first `warmupMs` are not counted.
 */
export function runRawLoad(job: RawLoadJob): Promise<RawLoadResult> {
  const url = new URL(job.url);
  const wire = job.requests.map((request) => serialise(request, url.host));
  const result: RawLoadResult = {
    sent: 0,
    ok: 0,
    rejected: 0,
    acceptedItems: 0,
    errors: 0,
    seconds: 0,
    rps: 0,
    latenciesMs: [],
    sendLagsMs: [],
    firstRejection: '',
    cpuUs: 0,
  };
  const rate = job.ratePerSecond ?? 0;
  const warmupMs = job.warmupMs ?? 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const countFrom = start + warmupMs;
  const deadline = countFrom + job.durationMs;
  const wanted = Math.floor(((warmupMs + job.durationMs) / 1000) * rate);
  const total = rate > 0 ? Math.min(wire.length, wanted) : wire.length;
  if (rate > 0 && wire.length < wanted) {
    // Too few prepared for the rate: the shortfall is never sent, and the run says so.
    result.errors += wanted - wire.length;
    result.firstRejection = `prepared requests ran out: ${wire.length} for ${wanted} at ${rate}/s`;
  }
  const dueAt = new Map<RawConnection, number>();
  const idle: RawConnection[] = [];
  const backlog: { bytes: Buffer; due: number }[] = [];
  let next = 0;
  let open = job.connections;
  let finished: () => void = () => {};

  const send = (connection: RawConnection, bytes: Buffer, due: number) => {
    dueAt.set(connection, due);
    result.sent++;
    connection.send(bytes);
    if (rate > 0 && due >= countFrom) result.sendLagsMs.push(performance.now() - due);
  };
  const retire = (connection: RawConnection) => {
    connection.close();
    if (--open === 0) finished();
  };
  /** What a connection does once free: the next due request, or wait (paced), or stop. */
  const free = (connection: RawConnection) => {
    dueAt.delete(connection);
    if (rate > 0) {
      const waiting = backlog.shift();
      if (waiting !== undefined) send(connection, waiting.bytes, waiting.due);
      else if (next >= total) retire(connection);
      else idle.push(connection);
      return;
    }
    const now = performance.now();
    if (now >= deadline || next >= wire.length) {
      if (next >= wire.length) result.firstRejection ||= 'prepared requests ran out';
      return retire(connection);
    }
    send(connection, wire[next++]!, now);
  };
  const onAnswer = (connection: RawConnection, status: number, body: string) => {
    const due = dueAt.get(connection)!;
    if (due >= countFrom) {
      result.latenciesMs.push(performance.now() - due);
      if (status === 200) result.acceptedItems += body.split('"success":true').length - 1;
      if (status === 200 && !body.includes('"success":false')) result.ok++;
      else {
        result.rejected++;
        result.firstRejection ||= `${status} ${body.slice(0, 200)}`;
      }
    }
    free(connection);
  };
  const onFailure = (connection: RawConnection, reason: string) => {
    result.firstRejection ||= reason;
    // A request in flight is lost: counted as an error, its latency at least until now (a slow
    // answer that ends in a reset must not drop out of the percentiles).
    const due = dueAt.get(connection);
    if (due !== undefined) {
      result.errors++;
      if (due >= countFrom) result.latenciesMs.push(performance.now() - due);
    }
    dueAt.delete(connection);
    const at = idle.indexOf(connection);
    if (at >= 0) idle.splice(at, 1);
    if (--open === 0) finished();
  };

  return new Promise<RawLoadResult>((resolve) => {
    finished = () => {
      // Paced, the counted span is that of the due times; unpaced, until the last answer.
      result.seconds = rate > 0 ? job.durationMs / 1000 : (performance.now() - countFrom) / 1000;
      result.rps = result.ok / result.seconds;
      // Paced, with every connection gone: what was due or still to come was never sent.
      if (rate > 0) result.errors += backlog.length + (total - next);
      const cpu = process.cpuUsage(cpuBefore);
      result.cpuUs = cpu.user + cpu.system;
      resolve(result);
    };
    for (let i = 0; i < job.connections; i++) new RawConnection(url, onAnswer, onFailure, free);
    if (rate === 0) return;
    const tick = () => {
      const due = dueCount(performance.now() - start, rate, total);
      while (next < due) {
        const bytes = wire[next]!;
        const at = start + (next++ * 1000) / rate;
        const connection = idle.pop();
        if (connection !== undefined) send(connection, bytes, at);
        else backlog.push({ bytes, due: at });
      }
      if (open === 0) return;
      if (next < total) setTimeout(tick, 1);
      else for (const connection of idle.splice(0)) retire(connection);
    };
    tick();
  });
}

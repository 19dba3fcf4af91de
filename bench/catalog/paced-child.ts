// Child process of bench/catalog: open-loop load at a fixed rate. Requests are due evenly (the
// deficit against rate × elapsed is issued every millisecond), go out on the first idle
// keep-alive connection or wait for one, and are timed from when they were due, so queueing
// counts (no coordinated omission). Raw sockets and a minimal response framer keep the client
// cheap enough to pace half of what the server can do. autocannon's overallRate is no good here:
// it sends each second's quota in a burst at full speed, then idles.
import net from 'node:net';
import { percentiles } from '../report.ts';

export interface PacedJob {
  url: string;
  rate: number;
  durationMs: number;
  connections: number;
}

export interface PacedResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non200: number;
  errors: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection, one request at a time; calls back with each response's status. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  busySince: number | undefined;

  constructor(
    private readonly socket: net.Socket,
    private readonly onResponse: (connection: Connection, status: number) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
  }

  send(request: Buffer, dueAt: number): void {
    this.busySince = dueAt;
    this.socket.write(request);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headEnd = this.buffer.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const head = this.buffer.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      const total = headEnd + 4 + length;
      if (this.buffer.length < total) return;
      this.buffer = this.buffer.subarray(total);
      this.onResponse(this, Number(head.slice(9, 12)));
    }
  }
}

async function pace(job: PacedJob): Promise<PacedResult> {
  const url = new URL(job.url);
  const request = Buffer.from(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`,
  );
  const latencies: number[] = [];
  const idle: Connection[] = [];
  const waiting: number[] = [];
  let non200 = 0;
  let errors = 0;
  let issued = 0;
  let answered = 0;

  const onResponse = (connection: Connection, status: number) => {
    latencies.push(performance.now() - connection.busySince!);
    answered++;
    if (status !== 200) non200++;
    const next = waiting.shift();
    if (next !== undefined) connection.send(request, next);
    else idle.push(connection);
  };
  const connections = await Promise.all(
    Array.from(
      { length: job.connections },
      () =>
        new Promise<Connection>((resolve, reject) => {
          const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () =>
            resolve(new Connection(socket, onResponse)),
          );
          socket.once('error', (error) => {
            errors++;
            reject(error);
          });
        }),
    ),
  );
  idle.push(...connections);

  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const elapsed = now - started;
      const due = Math.floor((Math.min(elapsed, job.durationMs) / 1000) * job.rate);
      for (; issued < due; issued++) {
        const dueAt = started + (issued / job.rate) * 1000;
        const connection = idle.pop();
        if (connection !== undefined) connection.send(request, dueAt);
        else waiting.push(dueAt);
      }
      // Stop once the time is up and everything issued is answered (or 2 s later at most).
      if (elapsed >= job.durationMs && (answered === issued || elapsed >= job.durationMs + 2000)) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  for (const connection of connections) connection.close();
  const [p50Ms, p99Ms] = percentiles(Float64Array.from(latencies), [50, 99]);
  return {
    rps: answered / (job.durationMs / 1000),
    p50Ms: p50Ms!,
    p99Ms: p99Ms!,
    non200,
    errors: errors + (issued - answered),
  };
}

process.once('message', (job: PacedJob) => {
  pace(job).then(
    (result) => process.send!(result, undefined, undefined, () => process.exit(0)),
    (error: unknown) => {
      console.error('paced load failed:', error);
      process.exit(1);
    },
  );
});

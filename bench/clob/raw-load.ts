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
}

export interface RawLoadResult {
  sent: number;
  ok: number;
  rejected: number;
  errors: number;
  seconds: number;
  rps: number;
  latenciesMs: number[];
  firstRejection: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

function serialise(request: PreparedRequest, host: string): Buffer {
  const body = Buffer.from(request.body);
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`POST ${request.path} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

/** Status and body length of a response head, or an Error for framing this client does not take. */
function parseHead(head: string): { status: number; length: number } | Error {
  const status = Number(head.slice(9, 12));
  const match = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (!head.startsWith('HTTP/1.1 ') || !Number.isInteger(status) || match === null) return new Error(`unframed response: ${head.slice(0, 200)}`);
  return { status, length: Number(match[1]) };
}

export function runRawLoad(job: RawLoadJob): Promise<RawLoadResult> {
  const url = new URL(job.url);
  const wire = job.requests.map((request) => serialise(request, url.host));
  const result: RawLoadResult = { sent: 0, ok: 0, rejected: 0, errors: 0, seconds: 0, rps: 0, latenciesMs: [], firstRejection: '' };
  let next = 0;
  const start = performance.now();
  const deadline = start + job.durationMs;

  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let expected: { status: number; length: number } | undefined;
      let headLength = 0;
      let done = false;
      const finish = () => {
        done = true;
        socket.destroy();
        resolve();
      };
      const send = () => {
        if (performance.now() >= deadline) return finish();
        if (next >= wire.length) {
          result.firstRejection ||= 'prepared requests ran out';
          return finish();
        }
        sentAt = performance.now();
        result.sent++;
        socket.write(wire[next++]!);
      };
      socket.on('connect', send);
      socket.on('data', (data: Buffer) => {
        pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
        if (expected === undefined) {
          const end = pending.indexOf(HEAD_END);
          if (end < 0) return;
          const head = parseHead(pending.toString('latin1', 0, end));
          if (head instanceof Error) {
            result.errors++;
            result.firstRejection ||= head.message;
            return finish();
          }
          expected = head;
          headLength = end + HEAD_END.length;
        }
        if (pending.length < headLength + expected.length) return;
        result.latenciesMs.push(performance.now() - sentAt);
        const body = pending.toString('utf8', headLength, headLength + expected.length);
        if (expected.status === 200 && !body.includes('"success":false')) result.ok++;
        else {
          result.rejected++;
          result.firstRejection ||= `${expected.status} ${body.slice(0, 200)}`;
        }
        pending = pending.subarray(headLength + expected.length);
        expected = undefined;
        send();
      });
      socket.on('error', (error) => {
        if (done) return;
        result.errors++;
        result.firstRejection ||= error.message;
        finish();
      });
      socket.on('close', () => {
        if (done) return;
        result.errors++; // the server closed a connection the client was still using
        result.firstRejection ||= 'connection closed by the server';
        finish();
      });
    });

  return Promise.all(Array.from({ length: job.connections }, connection)).then(() => {
    result.seconds = (performance.now() - start) / 1000;
    result.rps = result.latenciesMs.length / result.seconds;
    return result;
  });
}

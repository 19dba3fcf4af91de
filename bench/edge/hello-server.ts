// The edge bench's floor: a hand-written uWS app (GET /hello, POST /order echoing an id) on a
// loopback port and a Unix socket, in a process of its own so each process's CPU is its own.
import uWS from '@trufflesuite/uws-js-unofficial';
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';

const app = uWS.App();
app.get('/hello', (res) => {
  res.cork(() => res.writeHeader('content-type', 'application/json').end('{"hello":"world"}'));
});
app.post('/order', (res: HttpResponse) => {
  let aborted = false;
  let parts: Buffer[] = [];
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, isLast) => {
    parts.push(Buffer.from(new Uint8Array(chunk)));
    if (!isLast || aborted) return;
    const order = JSON.parse(Buffer.concat(parts).toString('utf8')) as { id: string };
    parts = [];
    res.cork(() => res.writeHeader('content-type', 'application/json').end(JSON.stringify({ ok: true, id: order.id })));
  });
});
let port = 0;
app.listen('127.0.0.1', 0, (socket) => {
  if (socket) port = uWS.us_socket_local_port(socket);
});
app.listen_unix((socket) => {
  if (!socket) throw new Error('hello server: cannot listen on the Unix socket');
}, process.argv[2]!);
process.send!(port);

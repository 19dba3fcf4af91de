// Child process of bench/catalog: a hand-written uWS hello-world GET, the ceiling catalog reads
// are compared with. Reports its port over IPC; exits when the parent disconnects.
import uWS from '@trufflesuite/uws-js-unofficial';

const app = uWS.App();
app.get('/hello', (res) => {
  res.cork(() => res.writeHeader('content-type', 'application/json').end('{"hello":"world"}'));
});
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) {
    console.error('hello-server: cannot listen');
    process.exit(1);
  }
  process.send!({ port: uWS.us_socket_local_port(socket) });
});
process.on('disconnect', () => process.exit(0));

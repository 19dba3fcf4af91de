// The core's side of the transport bench, in a process of its own so its CPU is measured apart:
// answers every batch of commands with one reply per command, over a uWS WebSocket server and
// over Redis Streams (XREAD BLOCK on the command stream, XADD to the reply stream).
import { Redis } from 'ioredis';
import { uws } from '@pmx/http';

interface Batch {
  n: number;
  commands: { id: number }[];
}

const reply = (batch: Batch) =>
  JSON.stringify({ n: batch.n, results: batch.commands.map((c) => ({ id: c.id, code: 0 })) });

const [redisUrl = 'redis://127.0.0.1:6379', prefix = 'pmxbench:'] = process.argv.slice(2);

const app = uws.App().ws('/core', {
  maxPayloadLength: 16 * 1024 * 1024,
  message: (ws, message) => {
    ws.send(reply(JSON.parse(Buffer.from(message).toString()) as Batch));
  },
});
let port = 0;
await new Promise<void>((resolve) =>
  app.listen('127.0.0.1', 0, (socket) => {
    port = uws.us_socket_local_port(socket as never);
    resolve();
  }),
);

// Redis Streams: one reader blocking on the command stream, one writer for replies (pipelined).
const reader = new Redis(redisUrl);
const writer = new Redis(redisUrl);
let stopped = false;
void (async () => {
  let last = '$';
  while (!stopped) {
    const got = (await reader.xread('COUNT', 256, 'BLOCK', 200, 'STREAMS', `${prefix}cmds`, last)) as
      [string, [string, string[]][]][] | null;
    if (got === null) continue;
    const pipe = writer.pipeline();
    for (const [id, fields] of got[0]![1]) {
      last = id;
      pipe.xadd(`${prefix}replies`, 'MAXLEN', '~', '100000', '*', 'b', reply(JSON.parse(fields[1]!) as Batch));
    }
    await pipe.exec();
  }
})();

process.on('message', (message: string) => {
  if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (message === 'stop') {
    stopped = true;
    reader.disconnect();
    writer.disconnect();
    process.exit(0);
  }
});
process.send!({ port });

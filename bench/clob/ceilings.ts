// The ceilings the trading bench compares orders with: a hello-world uWS server (POST and GET)
// and digest + recovery through the verify pool on all cores.
import { availableParallelism } from 'node:os';
import uWS from '@trufflesuite/uws-js-unofficial';
import { createVerifyPool } from '@pmx/signing';
import { EXCHANGE, type PreparedRequest } from './signed-orders.ts';

export function helloWorld(): { port: number; close: () => void } {
  const app = uWS.App();
  app.get('/hello', (res) => {
    res.cork(() => res.writeHeader('content-type', 'application/json').end('{"hello":"world"}'));
  });
  app.post('/hello', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const parts: Buffer[] = [];
    res.onData((chunk, last) => {
      parts.push(Buffer.from(new Uint8Array(chunk)));
      if (last && !aborted) {
        res.cork(() => {
          res
            .writeHeader('content-type', 'application/json')
            .end(JSON.stringify({ ok: true, bytes: Buffer.concat(parts).length }));
        });
      }
    });
  });
  let socket: unknown;
  app.listen('127.0.0.1', 0, (listening) => {
    socket = listening;
  });
  return { port: uWS.us_socket_local_port(socket as never), close: () => uWS.us_listen_socket_close(socket as never) };
}

export async function signatureCeiling(requests: PreparedRequest[], durationMs: number): Promise<{ rate: number }> {
  const threads = availableParallelism();
  const pool = createVerifyPool({ threads });
  const items = requests.map((r) => ({
    verifyingContract: EXCHANGE,
    order: (JSON.parse(r.body) as { order: never }).order,
  }));
  const batch = 100;
  let done = 0;
  const lane = async (deadline: number) => {
    let offset = 0;
    while (performance.now() < deadline) {
      const slice = items.slice(offset, offset + batch);
      offset = (offset + batch) % Math.max(batch, items.length - batch);
      await pool.verify({ chainId: 137, items: slice });
      done += slice.length;
    }
  };
  // The threads start, load the native addon and warm up first, untimed: counted, their start
  // would lower the ceiling and so flatter every ratio against it (by ≈ 10 % in a 4 s run here).
  const warmUntil = performance.now() + 500;
  await Promise.all(Array.from({ length: threads * 2 }, () => lane(warmUntil)));
  done = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: threads * 2 }, () => lane(start + durationMs)));
  const rate = done / ((performance.now() - start) / 1000);
  await pool.destroy();
  return { rate };
}

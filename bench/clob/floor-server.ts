// The floor of POST /order: a process made of only the parts the issue mandates for an order,
// with none of pmx's own work (no auth, no validation, no risk, no matching, no queue append).
// the edge (FLOOR_SOCKET set: HAProxy, started by the bench, in front of this Unix socket; the
// contract's SVC_X names need it: uWS 20.30 refuses '_' in header names) → uWS →
// JSON.parse → the verify pool (digest + recovery), batched by the clob's own SignatureCheck → a
// one-thread Piscina shard (4 tasks at a time, as the clob's), one task per turn, that does
// nothing → answer.
// Whatever pmx does, POST /order cannot go faster than this on the same machine.
// Env: FLOOR_SOCKET (the Unix socket the edge passes requests on), else FLOOR_PORT (straight at uWS).
import { rmSync } from 'node:fs';
import uWS from '@trufflesuite/uws-js-unofficial';
import { Piscina } from 'piscina';
import {
  DEFAULT_CHAIN_ID,
  DEFAULT_EXCHANGE,
  SignatureCheck,
  createVerifyPool,
  type OrderWithSignature,
} from '@pmx/signing';
import { workerExecArgv } from '@pmx/config';

interface Pending {
  res: uWS.HttpResponse;
  aborted: boolean;
  order?: OrderWithSignature;
}

const ANSWER = '{"success":true,"errorMsg":"","orderID":"0x","takingAmount":"0","makingAmount":"0","status":"live"}';
const verify = createVerifyPool();
const shard = new Piscina({
  filename: new URL('./floor-shard.ts', import.meta.url).href,
  minThreads: 1,
  maxThreads: 1,
  concurrentTasksPerWorker: 4,
  idleTimeout: Infinity,
  execArgv: workerExecArgv(),
});
const signatures = new SignatureCheck(verify, DEFAULT_CHAIN_ID);
let toShard: { pending: Pending; signer: string }[] = [];

function answer(pending: Pending, status: string, body: string): void {
  if (!pending.aborted)
    pending.res.cork(() => pending.res.writeStatus(status).writeHeader('content-type', 'application/json').end(body));
}

/** The clob's own signature batching, then one shard task per turn for what it verified. */
function arrive(pending: Pending): void {
  signatures.verify(pending.order!, DEFAULT_EXCHANGE).then(
    (result) => {
      toShard.push({ pending, signer: 'signer' in result ? String(result.signer) : '' });
      if (toShard.length === 1) setImmediate(() => void toTheShard());
    },
    (error: unknown) => answer(pending, '500 Internal Server Error', JSON.stringify({ error: String(error) })),
  );
}

async function toTheShard(): Promise<void> {
  const batch = toShard;
  toShard = [];
  try {
    await shard.run({ signers: batch.map((b) => b.signer) });
    for (const { pending } of batch) answer(pending, '200 OK', ANSWER);
  } catch (error) {
    for (const { pending } of batch)
      answer(pending, '500 Internal Server Error', JSON.stringify({ error: String(error) }));
  }
}

const app = uWS.App();
// Any path: straight at uWS the bench sends the hello-world ceiling's requests (path /hello).
app.post('/*', (res, req) => {
  // The five SVC_ headers are read, as any auth would, and not checked.
  for (const name of ['svc-address', 'svc-api-key', 'svc-passphrase', 'svc-timestamp', 'svc-signature'])
    req.getHeader(name);
  const pending: Pending = { res, aborted: false };
  res.onAborted(() => (pending.aborted = true));
  const parts: Buffer[] = [];
  res.onData((chunk, last) => {
    parts.push(Buffer.from(chunk.slice(0)));
    if (!last) return;
    try {
      pending.order = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { order: OrderWithSignature }).order;
    } catch {
      return answer(pending, '400 Bad Request', '{"error":"malformed JSON"}');
    }
    arrive(pending);
  });
});

const port = Number(process.env.FLOOR_PORT);
const unixPath = process.env.FLOOR_SOCKET;
if (unixPath !== undefined) {
  app.listen_unix(() => {}, unixPath);
  process.once('exit', () => rmSync(unixPath, { force: true }));
} else {
  app.listen('127.0.0.1', port, (socket) => {
    if (!socket) throw new Error(`floor: port ${port} is taken`);
  });
}
// SIGTERM ends through exit, so the Unix socket's file goes with it.
process.once('SIGTERM', () => process.exit(0));
process.send!('ready');

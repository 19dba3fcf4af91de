// Transport bench: how gateways hand verified commands to the core (docs/design/cluster.md).
// Two candidates from well-kept libraries, each carrying batches of order-sized JSON commands to a
// core process that answers each: a uWS WebSocket server in the core with the `ws` client in the
// gateway, and Redis Streams (XADD / XREAD BLOCK both ways through the shared Redis). Measured
// side by side in one run: round-trip latency of one command, and commands/s with batches in
// flight, with each side's CPU per command. The winner must beat the other on both.
// Usage: pnpm --filter @pmx/bench transport [-- --seconds 3 --batch 32 --window 8]
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { cleanupRedisPrefix, testkitConfig, testRedisPrefix } from '@pmx/testkit';
import { percentiles, writeReport, type Row } from '../report.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    seconds: { type: 'string', default: '3' },
    batch: { type: 'string', default: '32' },
    window: { type: 'string', default: '8' },
    pings: { type: 'string', default: '2000' },
  },
});
const SECONDS = Number(values.seconds);
const BATCH = Number(values.batch);
const WINDOW = Number(values.window);
const PINGS = Number(values.pings);

/** A verified place command as a gateway sends it (order id, maker, market, terms). */
function command(id: number) {
  return {
    id,
    type: 'place',
    orderId: `0x${id.toString(16).padStart(64, '0')}`,
    apiKey: '4b1f3c2e-8d8a-4f5e-9a3b-2c1d0e9f8a7b',
    maker: '0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f',
    market: `0x${'ab'.repeat(32)}`,
    token: 0,
    side: 0,
    orderType: 0,
    price: 57,
    size: 10_000_000,
    postOnly: false,
    expiresAt: 0,
    signedAt: Date.now(),
    builder: `0x${'0'.repeat(64)}`,
  };
}

interface Link {
  send(batch: string): void;
  close(): Promise<void>;
}

/** Opens a link whose replies go to `onReply` (one per batch). */
type Opener = (onReply: (reply: string) => void) => Promise<Link>;

const prefix = testRedisPrefix();
const child = fork(new URL('./core-side.ts', import.meta.url), [testkitConfig.redisUrl, prefix], {
  execArgv: ['--import', 'tsx'],
});
const port = await new Promise<number>((resolve) =>
  child.once('message', (message: { port: number }) => resolve(message.port)),
);
const childCpu = () =>
  new Promise<number>((resolve) => {
    child.once('message', (message: { cpu: NodeJS.CpuUsage }) => resolve(message.cpu.user + message.cpu.system));
    child.send('cpu');
  });
const ownCpu = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const openWebSocket: Opener = async (onReply) => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/core`, { perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.on('message', (data) => onReply(data.toString()));
  return {
    send: (batch) => ws.send(batch),
    close: async () => ws.close(),
  };
};

const openStreams: Opener = async (onReply) => {
  const writer = new Redis(testkitConfig.redisUrl);
  const reader = new Redis(testkitConfig.redisUrl);
  let open = true;
  let last = '$';
  const reading = (async () => {
    while (open) {
      const got = (await reader.xread('COUNT', 256, 'BLOCK', 200, 'STREAMS', `${prefix}replies`, last)) as
        [string, [string, string[]][]][] | null;
      if (got === null) continue;
      for (const [id, fields] of got[0]![1]) {
        last = id;
        onReply(fields[1]!);
      }
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50)); // the reader's first XREAD is out
  return {
    send: (batch) => void writer.xadd(`${prefix}cmds`, 'MAXLEN', '~', '100000', '*', 'b', batch),
    close: async () => {
      open = false;
      await reading;
      writer.disconnect();
      reader.disconnect();
    },
  };
};

/** One command at a time: round-trip latency in µs. */
async function latency(open: Opener): Promise<Float64Array> {
  const sample = new Float64Array(PINGS);
  let resolveReply: () => void = () => {};
  const link = await open(() => resolveReply());
  for (let i = 0; i < PINGS; i++) {
    const started = performance.now();
    const replied = new Promise<void>((resolve) => (resolveReply = resolve));
    link.send(JSON.stringify({ n: i, commands: [command(i)] }));
    await replied;
    sample[i] = (performance.now() - started) * 1000;
  }
  await link.close();
  return sample;
}

/** Batches of BATCH commands, WINDOW in flight, for SECONDS: commands/s and CPU µs per command each side. */
async function throughput(open: Opener): Promise<{ rate: number; gatewayUs: number; coreUs: number }> {
  let sent = 0;
  let answered = 0;
  let inFlight = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const until = performance.now() + SECONDS * 1000;
  let link: Link;
  const sendOne = () => {
    inFlight++;
    const commands = Array.from({ length: BATCH }, () => command(sent++));
    link.send(JSON.stringify({ n: sent, commands }));
  };
  link = await open((reply) => {
    answered += (JSON.parse(reply) as { results: unknown[] }).results.length;
    inFlight--;
    if (performance.now() < until) sendOne();
    else if (inFlight === 0) done();
  });
  const [gateway0, core0, t0] = [ownCpu(), await childCpu(), performance.now()];
  for (let i = 0; i < WINDOW; i++) sendOne();
  await finished;
  const elapsed = (performance.now() - t0) / 1000;
  const [gateway1, core1] = [ownCpu(), await childCpu()];
  await link.close();
  return { rate: answered / elapsed, gatewayUs: (gateway1 - gateway0) / answered, coreUs: (core1 - core0) / answered };
}

const rows: Row[] = [];
const results: Record<string, { p50: number; rate: number; coreUs: number; gatewayUs: number }> = {};
for (const [name, open] of [
  ['uWS WebSocket + ws client', openWebSocket],
  ['Redis Streams (XADD / XREAD)', openStreams],
] as const) {
  const [p50, p99] = percentiles(await latency(open), [50, 99]);
  const load = await throughput(open);
  results[name] = { p50: p50!, rate: load.rate, coreUs: load.coreUs, gatewayUs: load.gatewayUs };
  rows.push({
    transport: name,
    'one command p50 µs': Math.round(p50!),
    'one command p99 µs': Math.round(p99!),
    [`commands/s (batches of ${BATCH}, ${WINDOW} out)`]: Math.round(load.rate),
    'gateway CPU µs/command': Number(load.gatewayUs.toFixed(2)),
    'core CPU µs/command': Number(load.coreUs.toFixed(2)),
  });
}
child.send('stop');
const cleaner = new Redis(testkitConfig.redisUrl);
await cleanupRedisPrefix(cleaner, prefix);
cleaner.disconnect();

const ws = results['uWS WebSocket + ws client']!;
const streams = results['Redis Streams (XADD / XREAD)']!;
writeReport({
  bench: 'transport',
  goal: 'gateway → core commands: the transport with the lower latency and core CPU per command wins (peer in the same run)',
  rows,
  figures: {
    'latency ratio (streams / websocket)': Number((streams.p50 / ws.p50).toFixed(2)),
    'rate ratio (websocket / streams)': Number((ws.rate / streams.rate).toFixed(2)),
    'core CPU ratio (streams / websocket)': Number((streams.coreUs / ws.coreUs).toFixed(2)),
    'websocket wins on latency, rate and core CPU':
      ws.p50 < streams.p50 && ws.rate > streams.rate && ws.coreUs < streams.coreUs,
  },
});
process.exit(0);

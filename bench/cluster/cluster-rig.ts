// What the cluster benches share: a throwaway database and Redis prefix, the cluster's processes
// (each its own Node process from the repository root, with a CPU profile in BENCH_PROFILE_DIR if
// set), the operator API, and traders with API keys made on a gateway's direct port.
import type { BenchTrader } from '../clob/signed-orders.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import {
  cleanupRedisPrefix,
  createTestDatabase,
  testkitConfig,
  testRedisPrefix,
  type TestDatabase,
} from '@pmx/testkit';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** One line a process wrote on its standard output, and when it came (Date.now()). */
export interface OutputLine {
  at: number;
  line: string;
}

export interface RigProcess {
  child: ChildProcess;
  /** Every line of its standard output so far (the cluster's processes log JSON lines). */
  output: OutputLine[];
}

export class ClusterRig {
  readonly operatorKey = randomBytes(16).toString('hex');
  readonly shards = availableParallelism();
  readonly prefix = testRedisPrefix();
  readonly redis = new Redis(testkitConfig.redisUrl);
  private readonly running: ChildProcess[] = [];

  private constructor(readonly db: TestDatabase) {}

  static async create(): Promise<ClusterRig> {
    return new ClusterRig(await createTestDatabase());
  }

  /** The settings every process of the run shares. */
  get env(): Record<string, string> {
    return {
      PMX_PG_URL: this.db.url,
      PMX_REDIS_URL: testkitConfig.redisUrl,
      PMX_REDIS_PREFIX: this.prefix.slice(0, -1),
      PMX_SHARDS: String(this.shards),
      PMX_OPERATOR_KEY: this.operatorKey,
      PMX_AUTH_WINDOW_SECONDS: '3600',
      PMX_REPLAY_WINDOW_SECONDS: '1800',
      PMX_HISTORY: 'false',
      PMX_LOG_LEVEL: 'warn',
    };
  }

  /**
   * Starts `script` and resolves once `ready` answers: a URL answering 2xx (or, with `anyAnswer`,
   * answering at all), or a line of its output containing the string.
   */
  async start(
    script: string,
    env: Record<string, string>,
    ready: { url: string; anyAnswer?: boolean } | { line: string },
  ): Promise<RigProcess> {
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
      cwd: repo,
      env: { ...process.env, ...this.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.running.push(child);
    const output: OutputLine[] = [];
    let partial = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const at = Date.now();
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        output.push({ at, line });
        if (!/"level":("(trace|debug|info)"|10|20|30)\b/.test(line)) process.stdout.write(`${line}\n`);
      }
    });
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
      const up =
        'line' in ready
          ? output.some((o) => o.line.includes(ready.line))
          : await fetch(ready.url).then(
              (r) => r.ok || ready.anyAnswer === true,
              () => false,
            );
      if (up) return { child, output };
    }
    throw new Error(`${script} did not start`);
  }

  /** SIGTERM, so that a profile is written; SIGKILL after 10 s. */
  async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(late);
  }

  async operator(base: string, path: string, body: unknown): Promise<any> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.operatorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.ok) return response.json();
      if (response.status !== 425 || attempt === 100)
        throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A fresh 0.01-tick market (minimum 5) made through the operator API; its first token's id. */
  async market(operatorBase: string): Promise<string> {
    const yes = BigInt(`0x${randomBytes(16).toString('hex')}`).toString();
    await this.operator(operatorBase, '/operator/markets', {
      condition_id: `0x${randomBytes(32).toString('hex')}`,
      question: 'Cluster bench?',
      tokens: [
        { token_id: yes, outcome: 'Yes' },
        { token_id: BigInt(`0x${randomBytes(16).toString('hex')}`).toString(), outcome: 'No' },
      ],
      tick_size: '0.01',
      min_order_size: '5',
    });
    return yes;
  }

  /** Collateral and `asset` for each trader. */
  async fund(operatorBase: string, traders: BenchTrader[], amount: number, asset?: string): Promise<void> {
    for (const trader of traders) {
      await this.operator(operatorBase, '/operator/deposit', { address: trader.address, amount: String(amount) });
      if (asset !== undefined)
        await this.operator(operatorBase, '/operator/deposit', {
          address: trader.address,
          asset,
          amount: String(amount),
        });
    }
  }

  /** Stops what still runs, and removes the database and the Redis prefix. */
  async close(): Promise<void> {
    await Promise.all(this.running.map((child) => this.stop(child)));
    await cleanupRedisPrefix(this.redis, this.prefix);
    this.redis.disconnect();
    await this.db.drop();
  }
}

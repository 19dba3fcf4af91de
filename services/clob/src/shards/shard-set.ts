// The front end's view of its shards: a market maps to one shard by a stable hash; commands
// for a shard are batched per event-loop turn, one batch in flight per shard so order holds.
// Each reply is handed to `onReply` (risk settlement, book cache) before callers are answered.

import { Piscina } from 'piscina';
import type { ShardBatch, ShardCommand, ShardReply, ShardResult } from './protocol.ts';
import type { ShardWorkerData } from './shard-worker.ts';

export interface ShardSetOptions {
  shards: number;
  redisUrl: string;
  redisPrefix: string;
  /** Largest batch sent to a shard at once. */
  maxBatch?: number;
  onReply: (shard: number, reply: ShardReply) => void;
  now?: () => number;
}

interface Pending {
  command: ShardCommand;
  resolve: (result: ShardResult) => void;
  reject: (error: Error) => void;
}

/** FNV-1a 32 of the market key: stable across processes and restarts. */
export function shardOf(marketKey: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < marketKey.length; i++) {
    hash ^= marketKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

export class ShardSet {
  private readonly pools: Piscina[];
  private readonly queued: Pending[][];
  private readonly inFlight: boolean[];
  private readonly maxBatch: number;
  private readonly now: () => number;

  constructor(private readonly options: ShardSetOptions) {
    this.maxBatch = options.maxBatch ?? 512;
    this.now = options.now ?? Date.now;
    this.pools = Array.from({ length: options.shards }, (_, shard) => {
      const data: ShardWorkerData = { shard, redisUrl: options.redisUrl, redisPrefix: options.redisPrefix };
      return new Piscina({
        filename: new URL('./shard-worker.ts', import.meta.url).href,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: Infinity,
        workerData: data,
        execArgv: ['--import', 'tsx'],
      });
    });
    this.queued = this.pools.map(() => []);
    this.inFlight = this.pools.map(() => false);
  }

  get count(): number {
    return this.pools.length;
  }

  shardOf(marketKey: string): number {
    return shardOf(marketKey, this.pools.length);
  }

  submit(shard: number, command: ShardCommand): Promise<ShardResult> {
    return new Promise((resolve, reject) => {
      this.queued[shard]!.push({ command, resolve, reject });
      if (!this.inFlight[shard]) {
        this.inFlight[shard] = true;
        setImmediate(() => this.flush(shard));
      }
    });
  }

  /** Sends a command to every shard (e.g. the expiry timer). */
  broadcast(command: ShardCommand): Promise<ShardResult[]> {
    return Promise.all(this.pools.map((_, shard) => this.submit(shard, command)));
  }

  private flush(shard: number): void {
    const queue = this.queued[shard]!;
    if (queue.length === 0) {
      this.inFlight[shard] = false;
      return;
    }
    const pending = queue.splice(0, this.maxBatch);
    const batch: ShardBatch = { now: this.now(), commands: pending.map((p) => p.command) };
    this.pools[shard]!.run(batch).then(
      (reply: ShardReply) => {
        try {
          this.options.onReply(shard, reply);
        } finally {
          pending.forEach((p, i) => p.resolve(reply.results[i]!));
          this.flush(shard);
        }
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const p of pending) p.reject(failure);
        this.flush(shard);
      },
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.destroy()));
  }
}

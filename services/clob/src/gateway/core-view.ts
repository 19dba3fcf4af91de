// What a gateway knows of the core without asking it (docs/design/cluster.md): which shards
// trade, the book read model, the markets and the trades matched but not yet in the ledger, all
// kept from the core's snapshot and publications. Reads of market data never leave the gateway.

import { ShardNotReadyError } from '../trading-core.ts';
import { BookCache } from '../market-data/book-cache.ts';
import type { MarketRegistry } from '../markets/market-registry.ts';
import { shardOf } from '../shards/shard-set.ts';
import type { CoreSnapshot, CoreStatus, MatchedTrade, Publication } from '../link/core-protocol.ts';

const NO_CORE: CoreStatus = { shards: 1, ready: [] };

export class CoreView {
  readonly books = new BookCache();
  private status: CoreStatus = NO_CORE;
  private ready = new Set<number>();
  /** Publications other parts of the gateway follow (keys deleted, proxies changed, trades). */
  private readonly listeners = new Set<(publication: Publication) => void>();

  /**
   * `markets`: the gateway's registry, kept from the core's publications; or, in one process with
   * the core, the core's own (`shared`), which the core keeps itself.
   */
  constructor(
    private readonly markets: MarketRegistry,
    private readonly shared = false,
  ) {}

  on(listener: (publication: Publication) => void): void {
    this.listeners.add(listener);
  }

  /** A core (a new one after a failover) sent its whole state. */
  applySnapshot(snapshot: CoreSnapshot): void {
    if (!this.shared) for (const market of snapshot.markets) this.markets.adopt(market);
    this.books.clear();
    const at = Date.now();
    for (const levels of snapshot.books) this.books.update(levels, at);
    this.setStatus(snapshot.status);
  }

  /** No core answers: every shard counts as recovering until one does. */
  lost(): void {
    this.setStatus({ shards: this.status.shards, ready: [] });
  }

  apply(publication: Publication): void {
    switch (publication.type) {
      case 'books':
        for (const levels of publication.books) this.books.update(levels, publication.at);
        break;
      case 'market':
        if (!this.shared) this.markets.adopt(publication.market);
        break;
      case 'status':
        this.setStatus(publication.status);
        break;
    }
    for (const listener of this.listeners) listener(publication);
  }

  private setStatus(status: CoreStatus): void {
    this.status = status;
    this.ready = new Set(status.ready);
  }

  /** 503 once the core halted, 425 while the market's shard recovers (or no core answers). */
  notReady(market: string): ShardNotReadyError | undefined {
    if (this.status.halted !== undefined) return halted();
    if (!this.ready.has(shardOf(market, this.status.shards)))
      return new ShardNotReadyError('the market is recovering after a restart; retry shortly');
    return undefined;
  }

  assertReady(market: string): void {
    const error = this.notReady(market);
    if (error !== undefined) throw error;
  }

  /** Throws the halt's 503, or a 425 while any of the shards still recovers. */
  assertAllReady(): void {
    if (this.status.halted !== undefined) throw halted();
    if (this.ready.size < this.status.shards)
      throw new ShardNotReadyError('the exchange is recovering after a restart; retry shortly');
  }
}

function halted(): ShardNotReadyError {
  return new ShardNotReadyError(
    'trading is halted after an internal fault; the exchange restarts and recovers from its ledger',
    503,
  );
}

export type { MatchedTrade };

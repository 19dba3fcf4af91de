// Which order ids were used already, so a replayed signed order is refused even after a restart:
// recent ids in memory (bounded), older ones in the ledger's orders table, looked up in batches
// of one query per event-loop turn.

import type { Sql } from '@pmx/db';

export class KnownOrders {
  private readonly recent = new Set<string>();
  private waiting = new Map<string, ((known: boolean) => void)[]>();
  private scheduled = false;

  constructor(
    private readonly sql: Sql,
    private readonly capacity = 1_000_000,
  ) {}

  add(orderId: string): void {
    this.recent.add(orderId);
    if (this.recent.size > this.capacity) this.recent.delete(this.recent.values().next().value!);
  }

  has(orderId: string): Promise<boolean> {
    if (this.recent.has(orderId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.waiting.get(orderId);
      if (list !== undefined) list.push(resolve);
      else this.waiting.set(orderId, [resolve]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.lookup());
      }
    });
  }

  private async lookup(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    let found = new Set<string>();
    try {
      const rows = await this.sql<{ order_id: string }[]>`SELECT order_id FROM orders WHERE order_id = ANY(${[...batch.keys()]})`;
      found = new Set(rows.map((r) => r.order_id));
    } finally {
      for (const [id, resolvers] of batch) for (const resolve of resolvers) resolve(found.has(id));
    }
  }
}

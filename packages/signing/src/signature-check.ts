// Order signatures are checked off the main thread in the verify pool. At most one batch per
// pool thread is out at a time: orders that arrive while every thread is busy wait and go
// together as soon as one is free, so batches grow with the load and an idle pool answers at
// once. Orders arriving in the same event-loop turn share a batch.

import type { OrderWithSignature, VerifyResult } from './order-verification.ts';
import type { VerifyPool } from './verify-pool.ts';

interface Waiting {
  item: { verifyingContract: string; order: OrderWithSignature };
  resolve: (result: VerifyResult) => void;
  reject: (error: Error) => void;
}

export class SignatureCheck {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private busy = 0;

  constructor(
    private readonly pool: VerifyPool,
    private readonly chainId: number,
  ) {}

  verify(order: OrderWithSignature, verifyingContract: string): Promise<VerifyResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item: { verifyingContract, order }, resolve, reject });
      if (!this.scheduled && this.busy < this.pool.threads) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const free = this.pool.threads - this.busy;
    if (free <= 0 || this.waiting.length === 0) return;
    const all = this.waiting;
    this.waiting = [];
    const chunk = Math.ceil(all.length / free);
    for (let start = 0; start < all.length; start += chunk) {
      const group = all.slice(start, start + chunk);
      this.busy++;
      this.pool.verify({ chainId: this.chainId, items: group.map((w) => w.item) }).then(
        (results) => this.done(group, (w, i) => w.resolve(results[i]!)),
        (error: unknown) =>
          this.done(group, (w) => w.reject(error instanceof Error ? error : new Error(String(error)))),
      );
    }
  }

  private done(group: Waiting[], answer: (w: Waiting, i: number) => void): void {
    this.busy--;
    group.forEach(answer);
    if (this.waiting.length > 0) this.flush();
  }
}

// Order signatures are checked off the main thread in the verify pool. Orders arriving in the
// same event-loop turn go together, split into one batch per pool thread.

import type { OrderWithSignature, VerifyPool, VerifyResult } from '@pmx/signing';

interface Waiting {
  item: { verifyingContract: string; order: OrderWithSignature };
  resolve: (result: VerifyResult) => void;
  reject: (error: Error) => void;
}

export class SignatureCheck {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly pool: VerifyPool,
    private readonly chainId: number,
  ) {}

  verify(order: OrderWithSignature, verifyingContract: string): Promise<VerifyResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item: { verifyingContract, order }, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = [];
    const chunk = Math.max(1, Math.ceil(all.length / this.pool.threads));
    for (let start = 0; start < all.length; start += chunk) {
      const group = all.slice(start, start + chunk);
      this.pool.verify({ chainId: this.chainId, items: group.map((w) => w.item) }).then(
        (results) => group.forEach((w, i) => w.resolve(results[i]!)),
        (error: unknown) => group.forEach((w) => w.reject(error instanceof Error ? error : new Error(String(error)))),
      );
    }
  }
}

import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index.ts';

describe('IdIndex', () => {
  it('agrees with a Map through random inserts and deletes, across growth and wrap-around', () => {
    const index = new IdIndex(8);
    const model = new Map<number, number>();
    let seed = 1;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let step = 0; step < 50_000; step++) {
      const id = 1 + Math.floor(random() * 3000) * (random() < 0.1 ? 1024 : 1); // some colliding ids
      if (random() < 0.55) {
        index.set(id, step);
        model.set(id, step);
      } else {
        index.delete(id);
        model.delete(id);
      }
      if (step % 997 === 0) for (const [k, v] of model) expect(index.get(k)).toBe(v);
      expect(index.size).toBe(model.size);
    }
    for (let id = 0; id < 4_000_000; id += 1021) expect(index.get(id)).toBe(model.get(id));
  });
});

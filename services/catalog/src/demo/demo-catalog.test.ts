import { describe, expect, it } from 'vitest';
import { generateDemoCatalog } from './demo-catalog.ts';

describe('generateDemoCatalog', () => {
  const full = generateDemoCatalog({ seed: 42, scale: 1 });

  it('makes the documented volume at scale 1', () => {
    expect(full.events).toHaveLength(2000);
    expect(full.tags).toHaveLength(100);
    expect(full.profiles).toHaveLength(2000);
    expect(full.comments).toHaveLength(20_000);
    expect(full.markets.length).toBeGreaterThan(7500);
    expect(full.markets.length).toBeLessThan(8500);
    expect(full.series.length).toBeGreaterThan(180);
    expect(full.series.length).toBeLessThanOrEqual(200);
  });

  it('is deterministic per seed and differs across seeds', () => {
    const again = generateDemoCatalog({ seed: 42, scale: 0.05 });
    expect(generateDemoCatalog({ seed: 42, scale: 0.05 })).toEqual(again);
    expect(generateDemoCatalog({ seed: 7, scale: 0.05 }).events.map((e) => e.title)).not.toEqual(
      again.events.map((e) => e.title),
    );
  });

  it('makes unique slugs, condition ids and token ids, and consistent links', () => {
    const unique = (values: string[]) => new Set(values).size === values.length;
    expect(unique(full.events.map((e) => e.slug))).toBe(true);
    expect(unique(full.markets.map((m) => m.slug))).toBe(true);
    expect(unique(full.markets.map((m) => m.conditionId))).toBe(true);
    expect(unique(full.markets.flatMap((m) => m.tokens))).toBe(true);
    expect(
      full.markets.every((m) => /^0x[0-9a-f]{64}$/.test(m.conditionId) && m.tokens.every((t) => /^\d+$/.test(t))),
    ).toBe(true);
    expect(full.markets.every((m) => ['0.01', '0.001'].includes(m.tickSize))).toBe(true);
    const eventIds = new Set(full.events.map((e) => e.id));
    expect(full.markets.every((m) => eventIds.has(m.eventId))).toBe(true);
    const byId = new Map(full.comments.map((c) => [c.id, c]));
    for (const reply of full.comments.filter((c) => c.parentCommentId !== null)) {
      const parent = byId.get(reply.parentCommentId!)!;
      expect(parent.parentCommentId).toBeNull();
      expect([parent.parentEntityType, parent.parentEntityId]).toEqual([reply.parentEntityType, reply.parentEntityId]);
    }
  });

  it('mixes open and closed events', () => {
    const closed = full.events.filter((e) => e.closed).length;
    expect(closed).toBeGreaterThan(600);
    expect(closed).toBeLessThan(1200);
  });
});

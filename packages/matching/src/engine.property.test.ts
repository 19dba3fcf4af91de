// Property tests: long random command streams against the reference matcher, exact money
// conservation for every trade, and snapshot + replay equal to the live engine.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './engine.ts';
import { ReferenceMatcher } from './testing/reference-matcher.ts';
import { MatchKind, type Command, type EngineEvent, type PlaceOrder, type TokenIndex } from './types.ts';

const LOT = 10_000;
const MARKETS = [
  { key: 'm0', tickSize: '0.01' as const, ticks: 100, minSize: 2 * LOT },
  { key: 'm1', tickSize: '0.0025' as const, ticks: 400, minSize: LOT },
];

type Step =
  | {
      kind: 'place';
      market: number;
      token: TokenIndex;
      side: 0 | 1;
      orderType: 0 | 1 | 2 | 3;
      offset: number;
      lots: number;
      owner: number;
      postOnly: boolean;
      ttl: number;
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelOwner'; owner: number; market: number | undefined }
  | { kind: 'tick'; dt: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      market: fc.integer({ min: 0, max: 1 }),
      token: fc.constantFrom<TokenIndex>(0, 1),
      side: fc.constantFrom<0 | 1>(0, 1),
      orderType: fc.constantFrom<0 | 1 | 2 | 3>(0, 0, 0, 1, 2, 3),
      offset: fc.integer({ min: -8, max: 8 }),
      lots: fc.integer({ min: 0, max: 40 }),
      owner: fc.integer({ min: 1, max: 5 }),
      postOnly: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      ttl: fc.integer({ min: -2, max: 40 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancelOwner' as const),
      owner: fc.integer({ min: 1, max: 5 }),
      market: fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), dt: fc.integer({ min: 1, max: 15 }) }) },
);

/** Turns random steps into concrete engine commands (prices cluster around each market's middle). */
function toCommands(steps: Step[]): Command[] {
  let now = 1000;
  let placed = 0;
  const commands: Command[] = MARKETS.map((m) => ({
    type: 'addMarket',
    spec: { key: m.key, tickSize: m.tickSize, minSize: m.minSize },
  }));
  for (const s of steps) {
    now += 1;
    if (s.kind === 'tick') {
      now += s.dt;
      commands.push({ type: 'expire', now });
    } else if (s.kind === 'cancel') {
      commands.push({ type: 'cancel', orderId: placed === 0 ? 1 : (s.pick % placed) + 1, now });
    } else if (s.kind === 'cancelOwner') {
      commands.push({ type: 'cancelOwner', owner: s.owner, market: s.market, now });
    } else {
      const m = MARKETS[s.market];
      const step = m.ticks / 100; // one cent in ticks
      const price = m.ticks / 2 + s.offset * step + (s.market === 1 && s.offset % 3 === 0 ? 1 : 0);
      const order: PlaceOrder = {
        market: s.market,
        token: s.token,
        side: s.side,
        orderType: s.orderType,
        price,
        size: s.lots * LOT,
        owner: s.owner,
        postOnly: s.postOnly,
        expiresAt: s.orderType === 1 ? now + s.ttl : undefined,
      };
      commands.push({ type: 'place', now, ...order });
      placed++;
    }
  }
  return commands;
}

function applyToReference(ref: ReferenceMatcher, command: Command): unknown {
  switch (command.type) {
    case 'addMarket':
      return undefined;
    case 'place':
      return ref.place(command, command.now);
    case 'cancel':
      return ref.cancel(command.orderId, command.now);
    case 'cancelOwner':
      return ref.cancelOwner(command.owner, command.market, command.now);
    case 'expire':
      return ref.expire(command.now);
  }
}

/**
 * Replays trade events as money movements and checks them to the base unit: each fill's
 * collateral is a whole number of base units, collateral is only moved, locked by mints or
 * released by merges, and each token's supply equals the pairs locked.
 */
class ConservationCheck {
  collateral = new Map<number, number>();
  tokens = [new Map<number, number>(), new Map<number, number>()];
  locked = 0;
  filled = new Map<number, number>();

  private add(map: Map<number, number>, owner: number, delta: number) {
    map.set(owner, (map.get(owner) ?? 0) + delta);
  }

  apply(event: EngineEvent, sizes: Map<number, number>): void {
    if (event.type === 'accepted') sizes.set(event.orderId, event.size);
    if (event.type !== 'trade') return;
    const ticks = MARKETS[event.market].ticks;
    let total = 0;
    for (const f of event.fills) {
      expect(f.size).toBeGreaterThan(0);
      const makerCash = (f.size * f.makerPrice) / ticks;
      const takerCash = (f.size * f.takerPrice) / ticks;
      expect(Number.isInteger(makerCash) && Number.isInteger(takerCash)).toBe(true);
      const buyer = (side: number) => side === 0;
      if (f.kind === MatchKind.TRANSFER) {
        expect(makerCash).toBe(takerCash);
        const [b, s] = buyer(event.takerSide) ? [event.takerOwner, f.makerOwner] : [f.makerOwner, event.takerOwner];
        this.add(this.collateral, b, -makerCash);
        this.add(this.collateral, s, makerCash);
        this.add(this.tokens[f.makerToken], b, f.size);
        this.add(this.tokens[f.makerToken], s, -f.size);
      } else if (f.kind === MatchKind.MINT) {
        expect(makerCash + takerCash).toBe(f.size); // one unit of collateral per pair
        this.add(this.collateral, f.makerOwner, -makerCash);
        this.add(this.collateral, event.takerOwner, -takerCash);
        this.locked += f.size;
        this.add(this.tokens[f.makerToken], f.makerOwner, f.size);
        this.add(this.tokens[event.takerToken], event.takerOwner, f.size);
      } else {
        expect(makerCash + takerCash).toBe(f.size);
        this.add(this.collateral, f.makerOwner, makerCash);
        this.add(this.collateral, event.takerOwner, takerCash);
        this.locked -= f.size;
        this.add(this.tokens[f.makerToken], f.makerOwner, -f.size);
        this.add(this.tokens[event.takerToken], event.takerOwner, -f.size);
      }
      total += f.size;
      for (const [id, qty] of [
        [f.makerOrderId, f.size],
        [event.takerOrderId, f.size],
      ]) {
        this.add(this.filled, id, qty);
        expect(this.filled.get(id)!).toBeLessThanOrEqual(sizes.get(id)!);
      }
    }
    expect(total).toBe(event.size);
    const sum = (map: Map<number, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    expect(sum(this.collateral) + this.locked).toBe(0);
    expect(sum(this.tokens[0])).toBe(this.locked);
    expect(sum(this.tokens[1])).toBe(this.locked);
  }
}

describe('engine against the reference matcher', () => {
  it('agrees on every result, event and book over long random command streams (≥ 10,000 commands)', () => {
    let commandsRun = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 150, maxLength: 250 }), (steps) => {
        const commands = toCommands(steps);
        const engine = new MatchingEngine();
        const ref = new ReferenceMatcher(MARKETS);
        const conservation = new ConservationCheck();
        const sizes = new Map<number, number>();
        let seenRef = 0;
        for (const command of commands) {
          const got = engine.apply(command);
          const want = applyToReference(ref, command);
          commandsRun++;
          if (command.type === 'addMarket') continue;
          if (command.type !== 'expire') expect(got).toEqual(want);
          const events = engine.takeEvents();
          expect(events).toEqual(ref.events.slice(seenRef));
          seenRef = ref.events.length;
          for (const event of events) conservation.apply(event, sizes);
          for (let m = 0; m < MARKETS.length; m++) {
            for (const token of [0, 1] as const) expect(engine.book(m, token)).toEqual(ref.book(m, token));
            const last = ref.lastTrade[m];
            expect(engine.lastTradePrice(m, 0)).toBe(last === 0 ? null : last);
          }
        }
      }),
      { numRuns: 60, seed: 20261122 },
    );
    expect(commandsRun).toBeGreaterThanOrEqual(10_000);
  });
});

describe('snapshot and replay', () => {
  it('an engine restored from a snapshot plus the later commands equals the live engine', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 60, maxLength: 160 }), fc.nat(), (steps, cut) => {
        const commands = toCommands(steps);
        const at = MARKETS.length + (cut % (commands.length - MARKETS.length + 1));
        const live = new MatchingEngine();
        for (const command of commands.slice(0, at)) live.apply(command);
        live.takeEvents();
        const snapshot = JSON.parse(JSON.stringify(live.snapshot()));
        const restored = MatchingEngine.restore(snapshot);
        expect(restored.stateHash()).toBe(live.stateHash());
        for (const command of commands.slice(at)) {
          expect(restored.apply(command)).toEqual(live.apply(command));
        }
        expect(restored.takeEvents()).toEqual(live.takeEvents());
        expect(restored.stateHash()).toBe(live.stateHash());
        for (let m = 0; m < MARKETS.length; m++) expect(restored.bookHash(m)).toBe(live.bookHash(m));
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('a state hash tells engines apart that differ in one order', () => {
    const a = new MatchingEngine();
    const b = new MatchingEngine();
    for (const e of [a, b]) e.addMarket({ key: 'm', tickSize: '0.01', minSize: 0 });
    a.place({ market: 0, token: 0, side: 0, orderType: 0, price: 40, size: LOT, owner: 1 }, 1);
    b.place({ market: 0, token: 0, side: 0, orderType: 0, price: 40, size: 2 * LOT, owner: 1 }, 1);
    expect(a.stateHash()).not.toBe(b.stateHash());
  });
});

// Risk scenarios driven through the real engine: reservations, settlement of transfers, mints and
// merges to the base unit, releases — and the conservation invariant after every scenario.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderType, Side, type TokenIndex } from '@pmx/matching';
import { COLLATERAL, RiskBook } from './risk-book.ts';
import { Desk, TOKEN, split } from './testing/desk.ts';

describe('deposits', () => {
  it('refuses one that would take a total past 2^53 - 1, so no figure is ever rounded', () => {
    const risk = new RiskBook();
    const max = Number.MAX_SAFE_INTEGER;
    expect(risk.canCredit('alice', COLLATERAL, max)).toBe(true);
    risk.credit('alice', COLLATERAL, max);
    // Another address, but the asset's supply would pass it: every balance of it is bounded by that.
    expect(risk.canCredit('bob', COLLATERAL, 1)).toBe(false);
    expect(() => risk.credit('bob', COLLATERAL, 1)).toThrow('past 2^53 - 1');
    expect(risk.balance('bob', COLLATERAL).total).toBe(0);
    expect(risk.debit('alice', COLLATERAL, 1)).toBe(true);
    expect(risk.balance('alice', COLLATERAL).total).toBe(max - 1);
    expect(risk.canCredit('bob', COLLATERAL, 1)).toBe(true);
    expect(risk.checkInvariants()).toEqual([]);
  });

  it('keeps a token supply and the collateral supply together below 2^53, since trades mint tokens from collateral', () => {
    const risk = new RiskBook();
    const max = Number.MAX_SAFE_INTEGER;
    risk.credit('alice', COLLATERAL, 1_000);
    // Alice could mint 1,000 more of token-1 with her collateral: that must still fit.
    expect(risk.canCredit('bob', 'token-1', max - 1_000)).toBe(true);
    expect(risk.canCredit('bob', 'token-1', max - 999)).toBe(false);
    risk.credit('bob', 'token-1', max - 1_000);
    expect(risk.canCredit('alice', COLLATERAL, 1)).toBe(false);
    expect(risk.canCredit('carol', 'token-2', max - 1_000)).toBe(true);
    // Transfers on their way count, of the asset and of the others.
    expect(risk.canCredit('carol', 'token-2', 1, new Map([[COLLATERAL, max - 1_000]]))).toBe(false);
    expect(risk.canCredit('carol', COLLATERAL, 0, new Map([['token-3', max - 999]]))).toBe(false);
    expect(risk.debit('bob', 'token-1', 1)).toBe(true);
    expect(risk.canCredit('alice', COLLATERAL, 1)).toBe(true);
  });

  it('counts the collateral that merges of deposited token pairs release, in every market', () => {
    const risk = new RiskBook();
    risk.addMarket({ key: 'm1', tokens: ['YES1', 'NO1'], ticksPerUnit: 100 });
    risk.addMarket({ key: 'm2', tokens: ['YES2', 'NO2'], ticksPerUnit: 100 });
    const x = 3_100_000_000_000_000; // 3.1·10^9 tokens
    for (const token of ['YES1', 'NO1', 'YES2']) {
      expect(risk.canCredit('whale', token, x)).toBe(true);
      risk.credit('whale', token, x);
    }
    // Merging m1's pairs releases x of collateral, which can mint x more YES2 beside the x
    // deposited: 2x. NO2 up to x only closes that gap; past it, NO2 holders reach x + NO2.
    expect(risk.canCredit('whale', 'NO2', x)).toBe(true);
    expect(risk.canCredit('whale', 'NO2', Number.MAX_SAFE_INTEGER - x)).toBe(true);
    expect(risk.canCredit('whale', 'NO2', Number.MAX_SAFE_INTEGER - x + 1)).toBe(false);
    expect(risk.canCredit('whale', COLLATERAL, Number.MAX_SAFE_INTEGER - 2 * x)).toBe(true);
    expect(risk.canCredit('whale', COLLATERAL, Number.MAX_SAFE_INTEGER - 2 * x + 1)).toBe(false);
  });

  it('counts minted tokens withdrawn (a negative token supply): the other token can still reach the ceiling plus the gap', () => {
    const risk = new RiskBook();
    risk.addMarket({ key: 'm', tokens: ['YES', 'NO'], ticksPerUnit: 100 });
    const x = 1_000_000_000_000;
    risk.credit('alice', COLLATERAL, x);
    expect(split(risk, 'alice', 'm', x)).toBe(true);
    expect(risk.debit('alice', 'YES', x)).toBe(true); // the minted YES leave for the chain
    // NO held can reach alice's x plus all the collateral carol brings, split.
    expect(risk.canCredit('carol', COLLATERAL, Number.MAX_SAFE_INTEGER - x)).toBe(true);
    expect(risk.canCredit('carol', COLLATERAL, Number.MAX_SAFE_INTEGER - x + 1)).toBe(false);
    risk.credit('carol', COLLATERAL, Number.MAX_SAFE_INTEGER - x);
    expect(split(risk, 'carol', 'm', Number.MAX_SAFE_INTEGER - x)).toBe(true);
    expect(risk.balance('alice', 'NO').total + risk.balance('carol', 'NO').total).toBe(Number.MAX_SAFE_INTEGER);
    expect(risk.checkInvariants()).toEqual([]);
  });

  it('bounds the collateral a market can lock once minted tokens of both sides were withdrawn', () => {
    const risk = new RiskBook();
    risk.addMarket({ key: 'm', tokens: ['A', 'B'], ticksPerUnit: 100 });
    risk.addMarket({ key: 'k', tokens: ['C', 'D'], ticksPerUnit: 100 });
    const max = Number.MAX_SAFE_INTEGER;
    const x = 1_000_000_000_000;
    risk.credit('alice', COLLATERAL, max);
    expect(split(risk, 'alice', 'm', x)).toBe(true);
    for (const token of ['A', 'B']) expect(risk.debit('alice', token, x)).toBe(true); // both minted sides leave
    // m still locks x; a pair of C and D merged would free collateral that could lock m past 2^53.
    expect(risk.canCredit('op', 'C', x)).toBe(true);
    risk.credit('op', 'C', x);
    expect(risk.canCredit('op', 'D', 1)).toBe(false);
    expect(() => risk.lockPairs('m', max)).toThrow('past 2^53 - 1');
  });

  it('keeps its running figures equal to the bound worked out from scratch, through random supply changes', () => {
    const risk = new RiskBook();
    const tokens = [0, 1, 2].flatMap((m) => [`Y${m}`, `N${m}`]);
    for (let m = 0; m < 3; m++) risk.addMarket({ key: `m${m}`, tokens: [`Y${m}`, `N${m}`], ticksPerUnit: 100 });
    const supply = new Map<string, bigint>();
    let seed = 7;
    const random = (n: number) => {
      // mulberry32: 32-bit integer steps only, so the sequence is the same everywhere
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const MAX = BigInt(Number.MAX_SAFE_INTEGER);
    const fromScratch = (asset: string, amount: number) => {
      const s = (a: string) => (supply.get(a) ?? 0n) + (a === asset ? BigInt(amount) : 0n);
      let ceiling = s(COLLATERAL);
      let widest = 0n;
      for (let m = 0; m < 3; m++) {
        const [y, n] = [s(`Y${m}`), s(`N${m}`)];
        const [low, high] = y < n ? [y, n] : [n, y];
        ceiling += low;
        widest = [widest, (high > 0n ? high : 0n) - low].reduce((a, b) => (a > b ? a : b));
      }
      return s(COLLATERAL) <= MAX && tokens.every((t) => s(t) <= MAX) && ceiling + widest <= MAX;
    };
    let negative = 0;
    for (let step = 0; step < 2000; step++) {
      if ([...supply.values()].some((v) => v < 0n)) negative++;
      const asset = random(4) === 0 ? COLLATERAL : tokens[random(tokens.length)]!;
      const amount = random(3) === 0 ? 2 ** 50 + random(1000) : random(2 ** 30);
      expect(risk.canCredit('probe', asset, amount), `step ${step}`).toBe(fromScratch(asset, amount));
      const action = random(4);
      if (action === 0) {
        // Minting from collateral: token supplies unchanged, so withdrawing those tokens takes them below 0.
        const m = random(3);
        split(risk, 'op', `m${m}`, Math.min(amount, risk.balance('op', COLLATERAL).available));
      } else if (action !== 1 && risk.canCredit('op', asset, amount)) {
        risk.credit('op', asset, amount);
        supply.set(asset, (supply.get(asset) ?? 0n) + BigInt(amount));
      } else {
        const held = risk.balance('op', asset).available;
        const out = random(2) === 0 ? held : Math.min(held, amount);
        if (risk.debit('op', asset, out)) supply.set(asset, (supply.get(asset) ?? 0n) - BigInt(out));
      }
    }
    expect(negative).toBeGreaterThan(100); // the run went through negative token supplies
    expect(risk.checkInvariants()).toEqual([]);
  });

  it('will not restore a ledger figure past 2^53 - 1', () => {
    const risk = new RiskBook();
    const holdings = [{ address: 'x', asset: COLLATERAL, amount: 9_900_000_000_000_000 }];
    expect(() => risk.restore({ holdings, locked: [], supplied: [] })).toThrow('not an exact integer');
  });

  it('refuses to credit past 2^53 - 1 on settlement rather than round', () => {
    const risk = new RiskBook();
    risk.credit('alice', 'token-1', Number.MAX_SAFE_INTEGER - 1_000);
    expect(() => risk.receive('alice', 'token-1', 1_001)).toThrow('more than 2^53 - 1');
    expect(risk.balance('alice', 'token-1').total).toBe(Number.MAX_SAFE_INTEGER - 1_000);
  });
});

describe('reservations', () => {
  it('refuses an order that its balance cannot cover and reserves one it can', () => {
    const desk = new Desk();
    desk.risk.credit('alice', COLLATERAL, 5 * TOKEN);
    expect(
      desk.place('alice', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 60, size: 10 * TOKEN }),
    ).toBe('not enough balance');
    expect(
      desk.place('alice', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 50, size: 10 * TOKEN }),
    ).toMatchObject({ status: 'live' });
    expect(desk.risk.balance('alice', COLLATERAL)).toEqual({ total: 5 * TOKEN, reserved: 5 * TOKEN, available: 0 });
    expect(desk.risk.debit('alice', COLLATERAL, 1)).toBe(false);
    desk.expectConserved();
  });

  it('a SELL reserves tokens, and a cancel gives them back', () => {
    const desk = new Desk();
    desk.risk.credit('bob', 'YES', 10 * TOKEN);
    const result = desk.place('bob', {
      token: 0,
      side: Side.SELL,
      orderType: OrderType.GTC,
      price: 70,
      size: 10 * TOKEN,
    });
    expect(desk.risk.balance('bob', 'YES').available).toBe(0);
    desk.cancel((result as { orderId: number }).orderId);
    expect(desk.risk.balance('bob', 'YES')).toEqual({ total: 10 * TOKEN, reserved: 0, available: 10 * TOKEN });
    desk.expectConserved();
  });

  it('an engine rejection releases the reservation', () => {
    const desk = new Desk();
    desk.risk.credit('alice', COLLATERAL, 10 * TOKEN);
    expect(
      desk.place('alice', { token: 0, side: Side.BUY, orderType: OrderType.FOK, price: 50, size: 10 * TOKEN }),
    ).toEqual({ ok: false, reason: 'fok-not-filled' });
    expect(desk.risk.balance('alice', COLLATERAL).reserved).toBe(0);
    desk.expectConserved();
  });
});

describe('settlement', () => {
  it('a transfer moves collateral to the seller and tokens to the buyer at the resting price', () => {
    const desk = new Desk();
    desk.risk.credit('seller', 'YES', 10 * TOKEN);
    desk.risk.credit('buyer', COLLATERAL, 10 * TOKEN);
    desk.place('seller', { token: 0, side: Side.SELL, orderType: OrderType.GTC, price: 55, size: 10 * TOKEN });
    desk.place('buyer', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 60, size: 10 * TOKEN });
    expect(desk.risk.balances('buyer')).toEqual({
      [COLLATERAL]: { total: 4.5 * TOKEN, reserved: 0, available: 4.5 * TOKEN }, // paid 5.5, improvement back
      YES: { total: 10 * TOKEN, reserved: 0, available: 10 * TOKEN },
    });
    expect(desk.risk.balance('seller', COLLATERAL).total).toBe(5.5 * TOKEN);
    expect(desk.risk.balance('seller', 'YES').total).toBe(0);
    desk.expectConserved();
  });

  it('a BUY partly filled below its limit keeps only its open size at its limit reserved', () => {
    const desk = new Desk();
    desk.risk.credit('seller', 'YES', 4 * TOKEN);
    desk.risk.credit('buyer', COLLATERAL, 10 * TOKEN);
    desk.place('seller', { token: 0, side: Side.SELL, orderType: OrderType.GTC, price: 50, size: 4 * TOKEN });
    expect(
      desk.place('buyer', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 60, size: 10 * TOKEN }),
    ).toMatchObject({ status: 'live' });
    // Paid 4 × 0.50 = 2; the 6 still open keep 6 × 0.60 = 3.6 reserved (what a restart rebuilds).
    expect(desk.risk.balance('buyer', COLLATERAL)).toEqual({
      total: 8 * TOKEN,
      reserved: 3.6 * TOKEN,
      available: 4.4 * TOKEN,
    });
    desk.expectConserved();
  });

  it('a mint takes collateral from both buyers, locks it, and creates one pair', () => {
    const desk = new Desk();
    desk.risk.credit('yes-buyer', COLLATERAL, 10 * TOKEN);
    desk.risk.credit('no-buyer', COLLATERAL, 10 * TOKEN);
    desk.place('yes-buyer', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 62, size: 10 * TOKEN });
    desk.place('no-buyer', { token: 1, side: Side.BUY, orderType: OrderType.GTC, price: 40, size: 10 * TOKEN });
    expect(desk.risk.balance('yes-buyer', COLLATERAL).total).toBe(3.8 * TOKEN);
    expect(desk.risk.balance('no-buyer', COLLATERAL).total).toBe(6.2 * TOKEN); // paid 0.38, not its 0.40 limit
    expect(desk.risk.balance('yes-buyer', 'YES').total).toBe(10 * TOKEN);
    expect(desk.risk.balance('no-buyer', 'NO').total).toBe(10 * TOKEN);
    expect(desk.risk.lockedCollateral('m')).toBe(10 * TOKEN);
    desk.expectConserved();
  });

  it('a merge burns a pair and pays both sellers out of the locked collateral', () => {
    const desk = new Desk();
    desk.risk.credit('a', COLLATERAL, 10 * TOKEN);
    desk.risk.credit('b', COLLATERAL, 10 * TOKEN);
    desk.place('a', { token: 0, side: Side.BUY, orderType: OrderType.GTC, price: 50, size: 10 * TOKEN });
    desk.place('b', { token: 1, side: Side.BUY, orderType: OrderType.GTC, price: 50, size: 10 * TOKEN });
    desk.place('a', { token: 0, side: Side.SELL, orderType: OrderType.GTC, price: 30, size: 4 * TOKEN });
    desk.place('b', { token: 1, side: Side.SELL, orderType: OrderType.FAK, price: 60, size: 4 * TOKEN });
    expect(desk.risk.lockedCollateral('m')).toBe(6 * TOKEN);
    expect(desk.risk.balance('a', COLLATERAL).total).toBe(5 * TOKEN + 1.2 * TOKEN);
    expect(desk.risk.balance('b', COLLATERAL).total).toBe(5 * TOKEN + 2.8 * TOKEN);
    desk.expectConserved();
  });

  it('flags a market that released more collateral than it ever locked', () => {
    const desk = new Desk();
    desk.risk.releasePairs('m', 1);
    expect(desk.risk.checkInvariants()).toContain('market m has -1 collateral locked');
  });

  it('detects money created out of nothing', () => {
    const desk = new Desk();
    desk.risk.receive('mallory', COLLATERAL, 1);
    expect(desk.risk.checkInvariants()).toEqual(['collateral held + locked 1, supplied 0']);
  });
});

describe('random order flow', () => {
  it('keeps balances, reservations and locked collateral conserved after every command', () => {
    const addresses = ['a', 'b', 'c', 'd'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            who: fc.integer({ min: 0, max: 3 }),
            token: fc.constantFrom<TokenIndex>(0, 1),
            side: fc.constantFrom(Side.BUY, Side.SELL),
            orderType: fc.constantFrom(OrderType.GTC, OrderType.GTC, OrderType.FAK, OrderType.FOK),
            price: fc.integer({ min: 35, max: 65 }),
            lots: fc.integer({ min: 1, max: 300 }),
            cancel: fc.integer({ min: 0, max: 9 }),
          }),
          { minLength: 50, maxLength: 150 },
        ),
        (steps) => {
          const desk = new Desk();
          for (const address of addresses) {
            desk.risk.credit(address, COLLATERAL, 150 * TOKEN);
            expect(desk.custody(address, 'split', [50 * TOKEN, 50 * TOKEN])).toEqual({ ok: true });
          }
          const live: number[] = [];
          for (const s of steps) {
            if (s.cancel < 2 && live.length > 0) {
              desk.cancel(live.splice(s.cancel % live.length, 1)[0]!);
            } else {
              const result = desk.place(addresses[s.who]!, {
                token: s.token,
                side: s.side,
                orderType: s.orderType,
                price: s.price,
                size: s.lots * 10_000,
              });
              if (typeof result === 'object' && result.ok && result.status === 'live') live.push(result.orderId);
            }
            desk.expectConserved();
          }
          // Everything cancelled: nothing stays reserved.
          for (const id of live) desk.cancel(id);
          for (const address of addresses)
            for (const b of Object.values(desk.risk.balances(address))) expect(b.reserved).toBe(0);
          desk.expectConserved();
        },
      ),
      { numRuns: 50, seed: 99 },
    );
  });
});

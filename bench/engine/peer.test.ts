// The engine bench's peer mapping: nodejs-order-book given pmx's refusal of FAK/FOK takers ends
// every operation with pmx's books, and without it parts from pmx where the bench once saw it.
import { OrderType, Side } from '@pmx/matching';
import { describe, expect, it } from 'vitest';
import { compareWithPeer } from './compare.ts';
import { PeerBooks } from './peer.ts';
import { LOT, OP_PLACE, mixedWorkload, type Workload } from './workload.ts';

interface Place {
  token: 0 | 1;
  side: Side;
  orderType: OrderType;
  price: number;
  lots: number;
  owner: number;
}

function workloadOf(places: Place[]): Workload {
  const n = places.length;
  const w: Workload = {
    count: n,
    op: new Uint8Array(n).fill(OP_PLACE),
    market: new Uint16Array(n),
    token: Uint8Array.from(places, (p) => p.token),
    side: Uint8Array.from(places, (p) => p.side),
    orderType: Uint8Array.from(places, (p) => p.orderType),
    price: Uint16Array.from(places, (p) => p.price),
    size: Float64Array.from(places, (p) => p.lots * LOT),
    owner: Uint32Array.from(places, (p) => p.owner),
    pick: new Uint32Array(n),
    orders: n,
    cancels: 0,
  };
  return w;
}

// The bench workload's ops 903376, 903537 and 903753 in market 4, with one order of another
// owner beyond the takers' limit: owner 382's BUY of token 1 at 51 rests as an ask of token 0 at
// 49; its own FAK SELL of token 1 at 51 meets only that; owner 260's FAK then meets it.
const RESTING = { token: 1, side: Side.BUY, orderType: OrderType.GTC, price: 51, lots: 86, owner: 382 } as const;
const FAR = { token: 0, side: Side.SELL, orderType: OrderType.GTC, price: 50, lots: 461, owner: 7 } as const;
const OWN_FAK = { token: 1, side: Side.SELL, orderType: OrderType.FAK, price: 51, lots: 39, owner: 382 } as const;
const OTHER_FAK = { ...OWN_FAK, lots: 79, owner: 260 } as const;

describe('the engine bench peer', () => {
  it("refuses an FAK that meets only its owner's orders and leaves them for the next taker, as pmx does", () => {
    const w = workloadOf([RESTING, FAR, OWN_FAK, OTHER_FAK]);
    const peer = new PeerBooks(1);
    expect([0, 1, 2, 3].map((i) => peer.step(w, i))).toEqual([0, 0, 0, 79]);
    expect(peer.refused).toBe(1);
    expect(peer.refusedOverOwnOrders).toBe(1);
    expect(peer.depth(0).asks).toEqual([
      [49, 7],
      [50, 461],
    ]);
    const comparison = compareWithPeer(w, 1, { everyStep: true });
    expect(comparison).toMatchObject({ disagreements: 0, booksEqual: true, pmxLots: 79, peerLots: 79 });
  });

  it("without pmx's refusal, the peer's IOC expires the taker's own order, so the next FAK finds nothing", () => {
    const w = workloadOf([RESTING, FAR, OWN_FAK, OTHER_FAK]);
    const comparison = compareWithPeer(w, 1, { everyStep: true, refusalRule: false });
    expect(comparison.booksEqual).toBe(false);
    expect(comparison.firstBookDifference).toMatch(/^op 2, after which market 0's books differ/);
    expect(comparison.firstBookDifference).toContain('refused (fak-no-match)');
    expect(comparison.firstBookDifference).toContain('op 0: GTC BUY token 1 at 51 ticks');
    expect(comparison.disagreements).toBe(1);
    expect(comparison.firstFillDifference).toBe(
      'op 3: FAK SELL token 1 at 51 ticks (BUY of token 0 at 49), 79 lots by owner 260 in market 0: ' +
        'pmx filled 79, the peer 0',
    );
  });

  it('agrees with pmx on every fill and on the books after every operation of a mixed workload', () => {
    const markets = 2;
    const comparison = compareWithPeer(mixedWorkload(20_000, markets, 7), markets, { everyStep: true });
    expect(comparison.firstBookDifference).toBeUndefined();
    expect(comparison).toMatchObject({ disagreements: 0, booksEqual: true });
    expect(comparison.pmxLots).toBeGreaterThan(0);
    expect(comparison.refused).toBeGreaterThan(0);
  });
});

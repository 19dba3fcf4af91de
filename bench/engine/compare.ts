// pmx beside the peer (peer.ts) on the engine bench's workload: both fed the same operations in
// lockstep, each placed order's fills compared, and the books compared at the end or after every
// operation (then the first operation after which they differ is described, books included).

import { MatchingEngine, OrderType, type Level, type PlaceOrder, type PlaceResult } from '@pmx/matching';
import { PeerBooks, type LotLevel } from './peer.ts';
import { LOT, OP_CANCEL, TICKS, loadOrder, type Workload } from './workload.ts';

const RING = 4096;
const TYPE_NAMES = ['GTC', 'GTD', 'FOK', 'FAK'];
/** Levels per side printed around a difference. */
const SHOWN_LEVELS = 5;

type LotBook = { bids: LotLevel[]; asks: LotLevel[] };

export function freshEngine(markets: number): MatchingEngine {
  const engine = new MatchingEngine();
  for (let m = 0; m < markets; m++) engine.addMarket({ key: `m${m}`, tickSize: '0.01', minSize: 5 * LOT });
  return engine;
}

/** The engine fed one operation at a time, cancelling from the same ring as the timed run. */
export class PmxBooks {
  readonly engine: MatchingEngine;
  private readonly ring = new Float64Array(RING);
  private ringLen = 0;
  private ringPos = 0;
  private readonly order: PlaceOrder = {
    market: 0,
    token: 0,
    side: 0,
    orderType: OrderType.GTC,
    price: 1,
    size: LOT,
    owner: 1,
  };
  /** The market the last step changed or tried to (−1 for a cancel with nothing to cancel). */
  touched = -1;
  lastPlace: PlaceResult | undefined;

  constructor(markets: number) {
    this.engine = freshEngine(markets);
  }

  /** Applies operation `i`; returns the lots a placed order traded at once (0 if refused), or −1 for a cancel. */
  step(w: Workload, i: number): number {
    this.touched = -1;
    if (w.op[i] === OP_CANCEL) {
      if (this.ringLen > 0) {
        const orderId = this.ring[w.pick[i]! % this.ringLen]!;
        this.touched = this.engine.openOrder(orderId)?.market ?? -1;
        this.engine.cancel(orderId, i);
      }
      this.engine.takeEvents();
      return -1;
    }
    this.touched = w.market[i]!;
    const result = (this.lastPlace = this.engine.place(loadOrder(this.order, w, i), i));
    this.engine.takeEvents();
    if (!result.ok) return 0;
    if (result.status === 'live') {
      this.ring[this.ringPos] = result.orderId;
      this.ringPos = (this.ringPos + 1) & (RING - 1);
      if (this.ringLen < RING) this.ringLen++;
    }
    return result.filled / LOT;
  }

  /** Levels best first in the first token's ticks, in lots, as the peer's. */
  depth(market: number): LotBook {
    const lots = (levels: Level[]): LotLevel[] => levels.map((level) => [level.price, Number(level.size) / LOT]);
    const book = this.engine.book(market, 0);
    return { bids: lots(book.bids), asks: lots(book.asks) };
  }
}

export interface PeerComparison {
  /** Placed orders whose immediate fills differ. */
  disagreements: number;
  firstFillDifference?: string;
  pmxLots: number;
  peerLots: number;
  /** FAK/FOK refused on pmx's rule before the peer saw them, and those over their owner's own orders. */
  refused: number;
  refusedOverOwnOrders: number;
  /** Books equal at the end (or, checking every step, after every operation). */
  booksEqual: boolean;
  /** Checking every step: the first operation after which the books differ, with the books. */
  firstBookDifference?: string;
}

/**
 * Plays the workload into pmx and the peer in lockstep. With `everyStep`, compares the touched
 * market's books after each operation until the first difference; `refusalRule: false`
 * plays the peer without pmx's refusal of FAK/FOK takers (peer.ts).
 */
export function compareWithPeer(
  w: Workload,
  markets: number,
  options: { everyStep?: boolean; refusalRule?: boolean } = {},
): PeerComparison {
  const pmx = new PmxBooks(markets);
  const peer = new PeerBooks(markets, options.refusalRule ?? true);
  const out: PeerComparison = {
    disagreements: 0,
    pmxLots: 0,
    peerLots: 0,
    refused: 0,
    refusedOverOwnOrders: 0,
    booksEqual: true,
  };
  const before: LotBook[] = Array.from({ length: markets }, () => ({ bids: [], asks: [] }));
  for (let i = 0; i < w.count; i++) {
    const pmxFilled = pmx.step(w, i);
    const peerFilled = peer.step(w, i);
    if (pmxFilled >= 0) {
      out.pmxLots += pmxFilled;
      out.peerLots += peerFilled;
      if (pmxFilled !== peerFilled) {
        out.disagreements++;
        out.firstFillDifference ??= `op ${i}: ${describeOrder(w, i)}: pmx filled ${pmxFilled}, the peer ${peerFilled}`;
      }
    }
    if (!options.everyStep || !out.booksEqual) continue;
    for (const market of new Set([pmx.touched, peer.touched])) {
      if (market < 0) continue;
      const after = { pmx: pmx.depth(market), peer: peer.depth(market) };
      if (JSON.stringify(after.pmx) === JSON.stringify(after.peer)) {
        before[market] = after.pmx;
        continue;
      }
      out.booksEqual = false;
      out.firstBookDifference = describeDifference(w, i, market, before[market]!, after, pmx, peer);
      break;
    }
  }
  for (let market = 0; market < markets && out.booksEqual && !options.everyStep; market++) {
    out.booksEqual = JSON.stringify(pmx.depth(market)) === JSON.stringify(peer.depth(market));
  }
  return Object.assign(out, { refused: peer.refused, refusedOverOwnOrders: peer.refusedOverOwnOrders });
}

/** A placed order in words, with its price also in the first token's terms (as the peer sees it). */
export function describeOrder(w: Workload, i: number): string {
  const buy = w.side[i] === 0;
  const first = w.token[i] === 0;
  const firstTokenPrice = first ? w.price[i]! : TICKS - w.price[i]!;
  return (
    `${TYPE_NAMES[w.orderType[i]!]} ${buy ? 'BUY' : 'SELL'} token ${w.token[i]} at ${w.price[i]} ticks ` +
    `(${buy === first ? 'BUY' : 'SELL'} of token 0 at ${firstTokenPrice}), ${w.size[i]! / LOT} lots ` +
    `by owner ${w.owner[i]} in market ${w.market[i]}`
  );
}

function describeDifference(
  w: Workload,
  i: number,
  market: number,
  before: LotBook,
  after: { pmx: LotBook; peer: LotBook },
  pmx: PmxBooks,
  peer: PeerBooks,
): string {
  const lines = [`op ${i}, after which market ${market}'s books differ:`];
  if (w.op[i] === OP_CANCEL) {
    lines.push(`  a cancel (ring pick ${w.pick[i]})`);
  } else {
    const result = pmx.lastPlace!;
    lines.push(`  ${describeOrder(w, i)}`);
    lines.push(
      `  pmx:  ${result.ok ? `${result.status}, filled ${result.filled / LOT} lots` : `refused (${result.reason})`}`,
    );
    const expired = peer.lastStpExpired.map((id) => `\n          op ${id}: ${describeOrder(w, Number(id))}`);
    lines.push(
      `  peer: ${expired.length > 0 ? `self-trade prevention expired its resting orders${expired.join('')}` : 'no orders expired'}`,
    );
  }
  lines.push(`  book before (equal in both; token 0's ticks × lots): ${showBook(before)}`);
  lines.push(`  pmx after:  ${showBook(after.pmx)}`);
  lines.push(`  peer after: ${showBook(after.peer)}`);
  return lines.join('\n');
}

function showBook(book: LotBook): string {
  const show = (levels: LotLevel[]) =>
    levels
      .slice(0, SHOWN_LEVELS)
      .map(([price, lots]) => `${price}×${lots}`)
      .join(' ');
  return `asks ${show(book.asks)} … | bids ${show(book.bids)} …`;
}

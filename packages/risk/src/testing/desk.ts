// Test-only: the front end's order and custody flow in miniature around a real engine and a
// RiskBook — reserve, place, feed events back, release the rest; hold, then settle a custody
// movement — so risk tests can check the conservation invariant after every step.
import { expect } from 'vitest';
import { MatchingEngine, type EngineEvent, type PlaceOrder, type PlaceResult, Side } from '@pmx/matching';
import { COLLATERAL, RiskBook, type RiskMarket } from '../risk-book.ts';
import { settleCustody, settleTrade } from '../settlement.ts';
import { redemptionValue } from '../redemption.ts';

export const TOKEN = 1_000_000;
let splits = 0;

/** A split as the front end runs it on a bare book: hold the collateral, then settle the movement. */
export function split(risk: RiskBook, address: string, key: string, amount: number): boolean {
  const id = `split-${++splits}`;
  if (!risk.holdCustody(id, address, [{ asset: COLLATERAL, amount }]).ok) return false;
  settleCustody(risk, risk.market(key)!, {
    id,
    op: 'split',
    owner: address,
    tokens: [amount, amount],
    collateral: amount,
  });
  return true;
}

/** The front end's order flow in miniature: reserve, place, feed events back, release the rest. */
export class Desk {
  readonly engine = new MatchingEngine();
  readonly risk = new RiskBook();
  readonly market: RiskMarket = { key: 'm', tokens: ['YES', 'NO'], ticksPerUnit: 100 };
  private readonly owners: string[] = [];
  private readonly external = new Map<number, string>();
  private counter = 0;
  now = 1;

  constructor() {
    this.engine.addMarket({ key: 'm', tickSize: '0.01', minSize: 0 });
    this.risk.addMarket(this.market);
  }

  owner(address: string): number {
    const index = this.owners.indexOf(address);
    return index >= 0 ? index : this.owners.push(address) - 1;
  }

  place(address: string, fields: Omit<PlaceOrder, 'market' | 'owner'>): PlaceResult | 'not enough balance' {
    const id = `order-${++this.counter}`;
    const asset = fields.side === Side.BUY ? COLLATERAL : this.market.tokens[fields.token];
    if (
      this.risk.reserveOrder(id, address, asset, {
        side: fields.side,
        price: fields.price,
        size: fields.size,
        ticksPerUnit: 100,
      }) !== 'ok'
    )
      return 'not enough balance';
    const result = this.engine.place({ ...fields, market: 0, owner: this.owner(address) }, this.now++);
    if (!result.ok) {
      this.risk.release(id);
      return result;
    }
    this.external.set(result.orderId, id);
    this.apply(this.engine.takeEvents());
    return result;
  }

  cancel(engineOrderId: number): void {
    this.engine.cancel(engineOrderId, this.now++);
    this.apply(this.engine.takeEvents());
  }

  /** Trades settle; cancels and expiries release what the order still has reserved. */
  private apply(events: EngineEvent[]): void {
    for (const event of events) {
      if (event.type === 'trade') {
        settleTrade(this.risk, this.market, event, (engineId, owner) => ({
          orderId: this.external.get(engineId)!,
          address: this.owners[owner]!,
        }));
      } else if (event.type === 'cancelled' || event.type === 'expired') {
        this.risk.release(this.external.get(event.orderId)!);
      }
    }
  }

  expectConserved(): void {
    expect(this.risk.checkInvariants()).toEqual([]);
  }

  /** A custody movement as the front end runs it: hold, then settle as its event arrives. */
  custody(address: string, op: 'split' | 'merge' | 'redeem', tokens: [number, number], payouts?: [number, number]) {
    const id = `custody-${++this.counter}`;
    const collateral = op === 'redeem' ? redemptionValue(tokens, payouts!).total : tokens[0];
    const held = this.risk.holdCustody(
      id,
      address,
      op === 'split'
        ? [{ asset: COLLATERAL, amount: collateral }]
        : this.market.tokens.map((asset, i) => ({ asset, amount: tokens[i]! })),
    );
    if (held.ok) settleCustody(this.risk, this.market, { id, op, owner: address, tokens, collateral });
    return held;
  }
}

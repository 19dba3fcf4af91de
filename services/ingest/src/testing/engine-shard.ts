// Test-only: a shard in miniature that produces the real engine's events as ShardJobs, the way
// the front end's shard threads do (external order ids and addresses, trade id `<shard>-<seq>`;
// a resolution and a redemption numbered with them), and optionally mirrors them into a RiskBook
// (reserve on place, settle on trade and redemption, release on close) so tests can compare the
// SQL ledger with the in-memory one.

import {
  MatchingEngine,
  OrderType,
  Side,
  type EngineEvent,
  type PlaceResult,
  type TickSize,
  type TokenIndex,
} from '@pmx/matching';
import { COLLATERAL, redemptionValue, RiskBook, settleCustody, settleTrade } from '@pmx/risk';
import type { MarketState, Payouts, ShardEvent, ShardJob } from '@pmx/events';

export interface TestMarket {
  conditionId: string;
  tokens: [string, string];
  outcomes: [string, string];
  tickSize: TickSize;
  ticksPerUnit: number;
}

export interface PlaceSpec {
  id: string;
  owner: string;
  market: TestMarket;
  token: TokenIndex;
  side: Side;
  /** Ticks of the order's own token. */
  price: number;
  size: number;
  type?: OrderType;
  postOnly?: boolean;
  /** ms; GTD only. */
  expiresAt?: number;
  /** The API key that placed it (default: none). */
  ownerKey?: string;
  /** The signed order's builder, bytes32 hex (default: zero). */
  builder?: string;
  /** The signed order's timestamp in ms (default: 0, unknown). */
  signedAt?: number;
}

const NO_BUILDER = `0x${'0'.repeat(64)}`;

export interface BatchOps {
  place(spec: PlaceSpec): PlaceResult;
  cancel(orderId: string): boolean;
  expire(): number;
  /** As the clob's shard resolves an open market: closed first (its resting orders cancelled), then resolved. */
  resolve(market: TestMarket, payouts: Payouts): void;
  /** `owner` redeems every token of the resolved `market` it holds; the collateral paid. */
  redeem(owner: string, market: TestMarket): number;
}

export class EngineShard {
  readonly engine = new MatchingEngine();
  readonly risk = new RiskBook();
  private readonly owners: string[] = [];
  private readonly ownerIds = new Map<string, number>();
  private readonly engineIds = new Map<string, number>();
  private readonly externalIds = new Map<number, string>();
  private readonly signed = new Map<string, { ownerKey: string; builder: string; signedAt: number }>();
  private readonly payouts = new Map<string, Payouts>();
  private redemptions = 0;

  constructor(readonly shard: number) {}

  addMarket(market: TestMarket): void {
    this.engine.addMarket({ key: market.conditionId, tickSize: market.tickSize, minSize: 0 });
    this.risk.addMarket({ key: market.conditionId, tokens: market.tokens, ticksPerUnit: market.ticksPerUnit });
  }

  /** Whether the order still rests on the book. */
  isOpen(orderId: string): boolean {
    const id = this.engineIds.get(orderId);
    return id !== undefined && this.engine.openOrder(id) !== undefined;
  }

  private owner(address: string): number {
    let id = this.ownerIds.get(address);
    if (id === undefined) {
      id = this.owners.push(address) - 1;
      this.ownerIds.set(address, id);
    }
    return id;
  }

  /** Runs commands at `now` and returns the job the shard would enqueue (null without events). */
  batch(now: number, run: (ops: BatchOps) => void): ShardJob | null {
    const events: ShardEvent[] = [];
    const drain = (): void => {
      const raw = this.engine.takeEvents();
      for (const event of raw) events.push(this.translate(event));
      this.settle(events.slice(events.length - raw.length));
    };
    run({
      place: (spec) => {
        const asset = spec.side === Side.BUY ? COLLATERAL : spec.market.tokens[spec.token];
        if (
          this.risk.reserveOrder(spec.id, spec.owner, asset, {
            side: spec.side,
            price: spec.price,
            size: spec.size,
            ticksPerUnit: spec.market.ticksPerUnit,
          }) !== 'ok'
        )
          throw new Error(`${spec.owner} cannot cover order ${spec.id}`);
        const result = this.engine.place(
          {
            market: this.engine.marketIndex(spec.market.conditionId)!,
            token: spec.token,
            side: spec.side,
            orderType: spec.type ?? OrderType.GTC,
            price: spec.price,
            size: spec.size,
            owner: this.owner(spec.owner),
            postOnly: spec.postOnly ?? false,
            expiresAt: spec.expiresAt,
          },
          now,
        );
        if (result.ok) {
          this.signed.set(spec.id, {
            ownerKey: spec.ownerKey ?? '',
            builder: spec.builder ?? NO_BUILDER,
            signedAt: spec.signedAt ?? 0,
          });
          this.engineIds.set(spec.id, result.orderId);
          this.externalIds.set(result.orderId, spec.id);
        } else {
          this.risk.release(spec.id);
        }
        drain();
        return result;
      },
      cancel: (orderId) => {
        const result = this.engine.cancel(this.engineIds.get(orderId)!, now);
        drain();
        return result.ok;
      },
      expire: () => {
        const expired = this.engine.expire(now);
        drain();
        return expired;
      },
      resolve: (market, payouts) => {
        const key = market.conditionId;
        if (this.payouts.has(key)) throw new Error(`${key} is already resolved`);
        const step = (state: MarketState, paid: Payouts | null) =>
          events.push({ type: 'lifecycle', seq: this.engine.nextSeq(), at: now, market: key, state, payouts: paid });
        step('closed', null);
        this.engine.cancelMarket(this.engine.marketIndex(key)!, now);
        drain();
        step('resolved', payouts);
        this.payouts.set(key, payouts);
        this.risk.resolve(key, payouts);
      },
      redeem: (owner, market) => {
        const payouts = this.payouts.get(market.conditionId);
        if (payouts === undefined) throw new Error(`${market.conditionId} is not resolved`);
        const tokens = market.tokens.map((token) => this.risk.balance(owner, token).available) as [number, number];
        const id = `redeem-${++this.redemptions}`;
        const holds = market.tokens.map((asset, i) => ({ asset, amount: tokens[i]! }));
        if (!this.risk.holdCustody(id, owner, holds).ok) throw new Error(`${owner} cannot redeem ${tokens.join(', ')}`);
        const collateral = redemptionValue(tokens, payouts).total;
        const event: Extract<ShardEvent, { type: 'custody' }> = {
          type: 'custody',
          seq: this.engine.nextSeq(),
          at: now,
          id,
          market: market.conditionId,
          owner,
          op: 'redeem',
          tokens,
          collateral,
          payouts,
        };
        events.push(event);
        settleCustody(this.risk, this.risk.market(market.conditionId)!, event);
        return collateral;
      },
    });
    if (events.length === 0) return null;
    return { shard: this.shard, fromSeq: events[0]!.seq, toSeq: events[events.length - 1]!.seq, events };
  }

  private settle(events: ShardEvent[]): void {
    for (const event of events) {
      if (event.type === 'trade') {
        settleTrade(this.risk, this.risk.market(event.market)!, event, (orderId, owner) => ({
          orderId,
          address: owner,
        }));
      } else if (event.type === 'cancelled' || event.type === 'expired') {
        this.risk.release(event.orderId);
      }
    }
  }

  private external(id: number): string {
    const external = this.externalIds.get(id);
    if (external === undefined) throw new Error(`engine order ${id} has no external id`);
    return external;
  }

  private translate(event: EngineEvent): ShardEvent {
    const market = this.engine.marketKey(event.market);
    switch (event.type) {
      case 'accepted': {
        const orderId = this.external(event.orderId);
        return { ...event, orderId, market, owner: this.owners[event.owner]!, ...this.signed.get(orderId)! };
      }
      case 'trade':
        return {
          ...event,
          tradeId: `${this.shard}-${event.seq}`,
          market,
          takerOrderId: this.external(event.takerOrderId),
          takerOwner: this.owners[event.takerOwner]!,
          fills: event.fills.map((f) => ({
            ...f,
            makerOrderId: this.external(f.makerOrderId),
            makerOwner: this.owners[f.makerOwner]!,
          })),
        };
      case 'cancelled':
      case 'expired':
        return { ...event, orderId: this.external(event.orderId), market, owner: this.owners[event.owner]! };
    }
  }
}

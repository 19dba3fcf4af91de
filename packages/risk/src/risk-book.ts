// Balances and reservations by address (the risk side of docs/design/money.md). Placing an order
// reserves what it could spend; fills spend from the reservation and credit the other asset;
// a cancel releases what is left. Collateral locked in minted pairs is tracked per market.

import { buyLimit, collateralFor, orderCost, type OrderTerms } from './order-cost.ts';
import { SupplyBound } from './supply-bound.ts';
import { MarketCollateral, type MarketFunds } from './market-collateral.ts';

export const COLLATERAL = 'collateral';
const NONE: ReadonlyMap<string, number> = new Map();

export interface Balance {
  total: number;
  reserved: number;
  available: number;
}

export interface RiskMarket {
  key: string;
  tokens: readonly [string, string];
  ticksPerUnit: number;
}

export type ReserveOutcome = 'ok' | 'insufficient' | 'duplicate';

/** An amount a custody movement holds. */
export interface CustodyHold {
  asset: string;
  amount: number;
}

export type HoldOutcome = { ok: true } | { ok: false; asset: string; available: number; wanted: number };

/** A custody hold's reservation key: its movement and asset (never an order id: those are 0x hashes). */
function holdKey(id: string, asset: string): string {
  return `${id}\u0000${asset}`;
}

interface Holding {
  total: number;
  reserved: number;
}

interface Reservation {
  address: string;
  asset: string;
  remaining: number;
  /** Base units of the order still open; when it reaches 0 the rest of the reservation is freed. */
  open: number;
  /** A BUY's limit: it keeps reserved only what its open size could still cost at this price. */
  limit?: BuyLimit;
}

/** A BUY's limit price in ticks of its token, and that market's ticks per whole token. */
export interface BuyLimit {
  price: number;
  ticksPerUnit: number;
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new Error(`amount must be a non-negative safe integer, got ${amount}`);
}

export class RiskBook {
  private readonly accounts = new Map<string, Map<string, Holding>>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly markets = new Map<string, RiskMarket>();
  /** Collateral locked in each market's pairs (less what redemptions paid out of it). */
  private readonly funds = new MarketCollateral((key) => this.markets.get(key));
  /** The assets each custody movement in flight holds (holdCustody). */
  private readonly custody = new Map<string, string[]>();
  /** Net operator credits per asset (credits − debits), the only source of money. */
  private readonly supplied = new Map<string, number>();
  /** What every balance can reach through trades, from the supplies (supply-bound.ts). */
  private readonly bound = new SupplyBound((asset) => this.supplied.get(asset) ?? 0, COLLATERAL);

  /** Before any of its tokens is credited (the bound counts a market's pairs from then on). */
  addMarket(market: RiskMarket): void {
    this.markets.set(market.key, market);
    this.bound.addMarket(market.tokens);
    this.funds.add(market.key);
  }

  market(key: string): RiskMarket | undefined {
    return this.markets.get(key);
  }

  private holding(address: string, asset: string): Holding {
    let account = this.accounts.get(address);
    if (account === undefined) this.accounts.set(address, (account = new Map()));
    let holding = account.get(asset);
    if (holding === undefined) account.set(asset, (holding = { total: 0, reserved: 0 }));
    return holding;
  }

  balance(address: string, asset: string): Balance {
    const holding = this.accounts.get(address)?.get(asset);
    if (holding === undefined) return { total: 0, reserved: 0, available: 0 };
    return { total: holding.total, reserved: holding.reserved, available: holding.total - holding.reserved };
  }

  /** Every asset an address holds, with its balance. */
  balances(address: string): Record<string, Balance> {
    const out: Record<string, Balance> = {};
    for (const asset of this.accounts.get(address)?.keys() ?? []) out[asset] = this.balance(address, asset);
    return out;
  }

  /**
   * Rebuilds the book from the ledger after a restart: what each address holds, what each market
   * has locked and what was supplied per asset. Reservations are then made again for open orders.
   */
  restore(state: {
    holdings: { address: string; asset: string; amount: number }[];
    locked: MarketFunds[];
    supplied: { asset: string; amount: number }[];
  }): void {
    if (this.reservations.size > 0) throw new Error('restore: the book already has reservations');
    // A figure past 2^53 would be rounded from here on: refuse to start on it rather than drift from the ledger.
    const figures = state.locked.flatMap((l) => [l.paidOut ?? 0, ...(l.burnt ?? [])]);
    for (const figure of [...state.holdings, ...state.locked, ...state.supplied]) {
      if (!Number.isSafeInteger(figure.amount))
        throw new Error(`restore: ${JSON.stringify(figure)} is not an exact integer (past 2^53 - 1 base units)`);
    }
    if (!figures.every(Number.isSafeInteger))
      throw new Error('restore: a redemption total is not an exact integer (past 2^53 - 1 base units)');
    this.accounts.clear();
    this.supplied.clear();
    for (const { address, asset, amount } of state.holdings) this.holding(address, asset).total = amount;
    this.funds.restore(state.locked);
    for (const { asset, amount } of state.supplied) this.supplied.set(asset, amount);
    this.bound.recompute(this.supplied.keys());
  }

  /**
   * Whether a deposit keeps every figure exact, below 2^53: the address's balance, and what trades
   * can take any balance to from the supplies (mints from collateral, merges of deposited pairs;
   * supply-bound.ts). `inFlight`: amounts per asset on their way (Funding), counted in.
   */
  canCredit(address: string, asset: string, amount: number, inFlight: ReadonlyMap<string, number> = NONE): boolean {
    const total = this.accounts.get(address)?.get(asset)?.total ?? 0;
    if (!Number.isSafeInteger(amount) || amount < 0 || !Number.isSafeInteger(total + amount)) return false;
    const delta = new Map(inFlight);
    delta.set(asset, (delta.get(asset) ?? 0) + amount);
    return this.bound.allows(delta);
  }

  /** Operator deposit of collateral or tokens (see canCredit). */
  credit(address: string, asset: string, amount: number): void {
    assertAmount(amount);
    if (!this.canCredit(address, asset, amount))
      throw new Error(`a deposit of ${amount} ${asset} would take a total past 2^53 - 1 base units`);
    this.holding(address, asset).total += amount;
    this.supplied.set(asset, (this.supplied.get(asset) ?? 0) + amount);
    this.bound.supplyChanged(asset);
  }

  /** Operator withdrawal; only what is not reserved can leave. */
  debit(address: string, asset: string, amount: number): boolean {
    assertAmount(amount);
    const holding = this.accounts.get(address)?.get(asset); // a refused debit leaves no empty entry behind
    if (holding === undefined || holding.total - holding.reserved < amount) return false;
    holding.total -= amount;
    this.supplied.set(asset, (this.supplied.get(asset) ?? 0) - amount);
    this.bound.supplyChanged(asset);
    return true;
  }

  /**
   * Reserves `amount` of `asset` for an order of `size` base units; refuses what is not available.
   * A BUY gives its limit, so that a fill at a better price frees the difference at once. Private:
   * `reserveOrder` derives amount and limit from the order's terms, so no caller can forget one.
   */
  private reserve(
    orderId: string,
    address: string,
    asset: string,
    amount: number,
    size: number,
    limit?: BuyLimit,
  ): ReserveOutcome {
    assertAmount(amount);
    assertAmount(size);
    if (this.reservations.has(orderId)) return 'duplicate';
    const holding = this.holding(address, asset);
    if (holding.total - holding.reserved < amount) return 'insufficient';
    holding.reserved += amount;
    this.reservations.set(
      orderId,
      limit === undefined
        ? { address, asset, remaining: amount, open: size }
        : { address, asset, remaining: amount, open: size, limit },
    );
    return 'ok';
  }

  /** Reserves what an order could spend: collateral at its limit for a BUY, its tokens for a SELL. */
  reserveOrder(orderId: string, address: string, asset: string, terms: OrderTerms): ReserveOutcome {
    return this.reserve(orderId, address, asset, orderCost(terms), terms.size, buyLimit(terms));
  }

  reserved(orderId: string): number {
    return this.reservations.get(orderId)?.remaining ?? 0;
  }

  hasReservation(orderId: string): boolean {
    return this.reservations.has(orderId);
  }

  /** The orders holding a reservation (for checks that every one belongs to a live order). */
  reservationIds(): IterableIterator<string> {
    return this.reservations.keys();
  }

  /** Releases what an order still has reserved (after a fill completes it, a cancel or an expiry). */
  release(orderId: string): number {
    const reservation = this.reservations.get(orderId);
    if (reservation === undefined) return 0;
    this.reservations.delete(orderId);
    this.holding(reservation.address, reservation.asset).reserved -= reservation.remaining;
    return reservation.remaining;
  }

  /**
   * A fill of `size` base units pays `amount` out of the order's reservation (it leaves the
   * owner's balance); once the order has nothing open, the rest of its reservation is freed.
   */
  spend(orderId: string, amount: number, size: number): void {
    assertAmount(amount);
    assertAmount(size);
    const reservation = this.reservations.get(orderId);
    if (reservation === undefined) throw new Error(`order ${orderId} has no reservation`);
    if (reservation.remaining < amount) {
      throw new Error(`order ${orderId} would spend ${amount} with only ${reservation.remaining} reserved`);
    }
    reservation.remaining -= amount;
    const holding = this.holding(reservation.address, reservation.asset);
    holding.reserved -= amount;
    holding.total -= amount;
    reservation.open -= size;
    if (reservation.open < 0) throw new Error(`order ${orderId} filled past its size`);
    if (reservation.open === 0) {
      this.release(orderId);
      return;
    }
    if (reservation.limit !== undefined) {
      // Filled below its limit: what the open size can still cost is all it keeps reserved.
      const keep = collateralFor(reservation.open, reservation.limit.price, reservation.limit.ticksPerUnit);
      if (reservation.remaining > keep) {
        holding.reserved -= reservation.remaining - keep;
        reservation.remaining = keep;
      }
    }
  }

  receive(address: string, asset: string, amount: number): void {
    assertAmount(amount);
    const holding = this.holding(address, asset);
    // canCredit keeps supplies where this cannot happen; should it, fail (and halt) rather than round.
    if (!Number.isSafeInteger(holding.total + amount))
      throw new Error(`${address} would hold more than 2^53 - 1 base units of ${asset}`);
    holding.total += amount;
  }

  /** Minting (or splitting) `pairs` locks that much collateral in the market. */
  lockPairs(marketKey: string, pairs: number): void {
    assertAmount(pairs);
    this.funds.change(marketKey, pairs);
  }

  /** Merging `pairs` releases that much collateral from the market. */
  releasePairs(marketKey: string, pairs: number): void {
    assertAmount(pairs);
    this.funds.change(marketKey, -pairs);
  }

  /**
   * Holds what custody movement `id` will take from `address` (collateral for a split, both tokens
   * for a merge or a redemption) while it goes through its market's shard, as an order's
   * reservation does: all or none. Refused, it names the first asset short and what is available.
   */
  holdCustody(id: string, address: string, amounts: readonly CustodyHold[]): HoldOutcome {
    if (this.custody.has(id)) throw new Error(`custody movement ${id} is already held`);
    const wanted = amounts.filter((a) => a.amount > 0);
    for (const { asset, amount } of wanted) {
      assertAmount(amount);
      const available = this.balance(address, asset).available;
      if (available < amount) return { ok: false, asset, available, wanted: amount };
    }
    for (const { asset, amount } of wanted) this.reserve(holdKey(id, asset), address, asset, amount, amount);
    this.custody.set(
      id,
      wanted.map((a) => a.asset),
    );
    return { ok: true };
  }

  /** Pays `amount` of a custody hold out of its owner's balance (the movement's event arrived). */
  spendHold(id: string, asset: string, amount: number): void {
    if (amount === 0) return;
    this.spend(holdKey(id, asset), amount, amount);
  }

  /** Frees whatever custody movement `id` still holds (settled, or refused by its shard). */
  releaseCustody(id: string): void {
    for (const asset of this.custody.get(id) ?? []) this.release(holdKey(id, asset));
    this.custody.delete(id);
  }

  /** A market resolved: what its tokens pay (collateral base units per whole token). */
  resolve(marketKey: string, payouts: readonly [number, number]): void {
    this.funds.resolve(marketKey, payouts);
  }

  /** A redemption burnt `tokens` of a market's two tokens and paid `collateral` out of it. */
  redeemed(marketKey: string, tokens: readonly [number, number], collateral: number): void {
    assertAmount(collateral);
    this.funds.redeemed(marketKey, tokens, collateral);
  }

  lockedCollateral(marketKey: string): number {
    return this.funds.of(marketKey);
  }

  /**
   * The conservation invariant: collateral held plus collateral locked equals collateral
   * supplied; each token's supply equals what was supplied plus its market's pairs still out,
   * less what redemptions burnt (market-collateral.ts);
   * reservations are within balances and add up per holding. Returns violations (empty = ok).
   */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const held = new Map<string, number>();
    const reservedByHolding = new Map<string, number>();
    for (const reservation of this.reservations.values()) {
      if (reservation.remaining < 0) problems.push(`negative reservation for ${reservation.address}`);
      if (
        reservation.limit !== undefined &&
        reservation.remaining !==
          collateralFor(reservation.open, reservation.limit.price, reservation.limit.ticksPerUnit)
      ) {
        problems.push(
          `a BUY of ${reservation.address} reserves ${reservation.remaining} for ${reservation.open} open at its limit`,
        );
      }
      const key = `${reservation.address}|${reservation.asset}`;
      reservedByHolding.set(key, (reservedByHolding.get(key) ?? 0) + reservation.remaining);
    }
    for (const [address, account] of this.accounts) {
      for (const [asset, holding] of account) {
        held.set(asset, (held.get(asset) ?? 0) + holding.total);
        if (holding.total < 0) problems.push(`${address} holds ${holding.total} of ${asset}`);
        if (holding.reserved < 0 || holding.reserved > holding.total) {
          problems.push(`${address} reserves ${holding.reserved} of ${asset} holding ${holding.total}`);
        }
        const expected = reservedByHolding.get(`${address}|${asset}`) ?? 0;
        if (holding.reserved !== expected)
          problems.push(`${address} reserved ${holding.reserved} of ${asset}, orders say ${expected}`);
      }
    }
    const markets = this.funds.check(held, (asset) => this.supplied.get(asset) ?? 0);
    problems.push(...markets.problems);
    const collateral = (held.get(COLLATERAL) ?? 0) + markets.total;
    const supplied = this.supplied.get(COLLATERAL) ?? 0;
    if (collateral !== supplied) problems.push(`collateral held + locked ${collateral}, supplied ${supplied}`);
    return problems;
  }
}

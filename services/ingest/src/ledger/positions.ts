// Positions at average cost, folded in event order (a buy then a sell in one batch must see the
// buy): a buy adds shares and their cost; a sell (or the sell side of a merge) removes the sold
// share of the cost basis, rounded down to a base unit, and realizes proceeds minus that cost.
// Integer arithmetic in bigint, so the cost basis never drifts: removed + kept = before.

export interface Position {
  address: string;
  asset: string;
  market: string;
  token: number;
  size: bigint;
  costBasis: bigint;
  realizedPnl: bigint;
  closedCost: bigint;
  totalBought: bigint;
}

/** One party's side of one fill, in that party's own token. */
export interface TokenMovement {
  address: string;
  asset: string;
  market: string;
  token: number;
  bought: boolean;
  /** Base units of the token. */
  size: number;
  /** Base units of collateral paid (buy) or received (sell). */
  cash: number;
}

export function positionKey(address: string, asset: string): string {
  return `${address}\u0000${asset}`;
}

export function emptyPosition(address: string, asset: string, market: string, token: number): Position {
  return { address, asset, market, token, size: 0n, costBasis: 0n, realizedPnl: 0n, closedCost: 0n, totalBought: 0n };
}

export function applyMovement(position: Position, movement: TokenMovement): void {
  const size = BigInt(movement.size);
  const cash = BigInt(movement.cash);
  if (movement.bought) {
    // A short position here means an operator withdrew these tokens before ingest wrote the buy
    // that brought them (the front end credits at the match; the ledger follows later). The
    // withdrawal took no cost with it then, so the shares it took bring none now: the result is
    // the one the two would have given in their real order.
    const covered = position.size < 0n ? (-position.size < size ? -position.size : size) : 0n;
    position.size += size;
    position.costBasis += covered === 0n ? cash : (cash * (size - covered)) / size;
    position.totalBought += size;
    return;
  }
  const closing = size < position.size ? size : position.size;
  const removed = position.size > 0n ? (position.costBasis * closing) / position.size : 0n;
  position.costBasis -= removed;
  position.closedCost += removed;
  position.realizedPnl += cash - removed;
  position.size -= size;
}

/** Applies `movements` in order to the positions in `current` (created when missing). */
export function foldPositions(
  current: Map<string, Position>,
  movements: readonly TokenMovement[],
): Map<string, Position> {
  for (const movement of movements) {
    const key = positionKey(movement.address, movement.asset);
    let position = current.get(key);
    if (position === undefined) {
      position = emptyPosition(movement.address, movement.asset, movement.market, movement.token);
      current.set(key, position);
    }
    applyMovement(position, movement);
  }
  return current;
}

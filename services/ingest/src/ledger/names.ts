// The ledger's text names for the engine's numeric codes (side, order type, match kind) and
// the ledger-entry cause of each kind of fill.
import { MatchKind, OrderType, Side } from '@pmx/matching';

export type SideName = 'BUY' | 'SELL';
export type KindName = 'transfer' | 'mint' | 'merge';
export type Cause = 'deposit' | 'withdrawal' | 'trade' | 'mint' | 'merge' | 'split' | 'redeem';

export function sideName(side: Side): SideName {
  return side === Side.BUY ? 'BUY' : 'SELL';
}

const ORDER_TYPE_NAMES: Record<OrderType, string> = {
  [OrderType.GTC]: 'GTC',
  [OrderType.GTD]: 'GTD',
  [OrderType.FOK]: 'FOK',
  [OrderType.FAK]: 'FAK',
};

export function orderTypeName(type: OrderType): string {
  return ORDER_TYPE_NAMES[type];
}

const KIND_NAMES: Record<MatchKind, KindName> = {
  [MatchKind.TRANSFER]: 'transfer',
  [MatchKind.MINT]: 'mint',
  [MatchKind.MERGE]: 'merge',
};

export function kindName(kind: MatchKind): KindName {
  return KIND_NAMES[kind];
}

/** A transfer fill's money moves as a 'trade'; a mint's or a merge's under that name. */
export function causeOfKind(kind: MatchKind): Cause {
  return kind === MatchKind.MINT ? 'mint' : kind === MatchKind.MERGE ? 'merge' : 'trade';
}

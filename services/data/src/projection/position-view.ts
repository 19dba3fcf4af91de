// A position as the contract shows it (Position; Closed position without negativeRisk): its
// figures converted once from fixed-point integers to JSON numbers, the market's descriptive
// fields beside them, serialised once, with the numbers the lists sort by.

import { scaledToNumber } from '@pmx/codec';
import type { PositionEntry } from './entries.ts';
import { closedFigures, openFigures, SCALE_TOKENS, SCALE_VALUE, TOKEN_SCALED, type Figures } from './position-figures.ts';

export type WireFigures = { [K in keyof Figures]: number };

export interface PositionView {
  figures: WireFigures;
  /** Unix seconds of the position's last change. */
  timestamp: number;
  redeemable: boolean;
  mergeable: boolean;
  /** The whole object as JSON: the Position (open) or the Closed position (fully reduced). */
  json: string;
}

function wire(figures: Figures): WireFigures {
  const out = {} as WireFigures;
  for (const [name, value] of Object.entries(figures) as [keyof Figures, bigint][])
    out[name] = scaledToNumber(value, TOKEN_SCALED.has(name) ? SCALE_TOKENS : SCALE_VALUE);
  return out;
}

/** `<condition_id>:<outcome_index>`, the contract's position asset identifier. */
export function assetId(conditionId: string, index: number): string {
  return `${conditionId}:${index}`;
}

export function renderPosition(entry: PositionEntry, price: bigint, holdsOther: boolean): PositionView {
  const { market, index, ledger } = entry;
  const open = ledger.size > 0n;
  const figures = wire(open ? openFigures(ledger, price) : closedFigures(ledger, price));
  const { row } = market;
  const redeemable = open && row.state === 'resolved' && row.payouts !== null && row.payouts[index] > 0n;
  const mergeable = open && holdsOther;
  const other = 1 - index;
  const body: Record<string, unknown> = {
    proxyWallet: entry.address,
    asset: assetId(row.conditionId, index),
    conditionId: row.conditionId,
    size: figures.size,
    avgPrice: figures.avgPrice,
    initialValue: figures.initialValue,
    currentValue: figures.currentValue,
    cashPnl: figures.cashPnl,
    percentPnl: figures.percentPnl,
    totalBought: figures.totalBought,
    realizedPnl: figures.realizedPnl,
    percentRealizedPnl: figures.percentRealizedPnl,
    curPrice: figures.curPrice,
    redeemable,
    mergeable,
    title: market.title,
    slug: market.slug,
    icon: market.icon,
    eventSlug: market.eventSlug,
    outcome: row.outcomes[index],
    outcomeIndex: index,
    oppositeOutcome: row.outcomes[other],
    oppositeAsset: assetId(row.conditionId, other),
    endDate: market.endDate,
    timestamp: ledger.updatedAt,
  };
  if (open) body.negativeRisk = row.negRisk;
  return { figures, timestamp: ledger.updatedAt, redeemable, mergeable, json: JSON.stringify(body) };
}

// Ticks per unit of collateral of a market's tick size as the markets table stores it ("0.01").
import { TICKS_PER_UNIT, type TickSize } from '@pmx/matching';

export function ticksPerUnitOf(tickSize: string): number {
  const ticks = TICKS_PER_UNIT[tickSize as TickSize];
  if (ticks === undefined) throw new Error(`unsupported tick size ${tickSize}`);
  return ticks;
}

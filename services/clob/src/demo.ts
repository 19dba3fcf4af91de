// Demo markets for a fresh exchange (PMX_DEMO_MARKETS=true; infra/start.sh instead loads the
// catalog's demo, which creates its order-book markets), and demo collateral for the addresses in
// PMX_DEMO_FUND. Deterministic, and a no-op when already there.

import { createHash } from 'node:crypto';
import type { RiskBook } from '@pmx/risk';
import type { MarketRecord, MarketRegistry, NewMarket } from './markets/market-registry.ts';
import type { Funding } from './risk/funding.ts';
import { COLLATERAL } from './trading-core.ts';

const QUESTIONS: [string, NewMarket['tickSize']][] = [
  ['Will the demo exchange clear one million trades this year?', '0.01'],
  ['Will it rain in the demo city tomorrow?', '0.01'],
  ['Will the demo index close above 5000 on Friday?', '0.001'],
];

function hex(seed: string, bytes: number): string {
  return createHash('sha256')
    .update(seed)
    .digest('hex')
    .slice(0, bytes * 2);
}

/** A decimal token id from a seed (uint256, as on chain). */
function tokenId(seed: string): string {
  return BigInt(`0x${hex(seed, 31)}`).toString(10);
}

export function demoMarkets(): NewMarket[] {
  return QUESTIONS.map(([question, tickSize], i) => ({
    conditionId: `0x${hex(`pmx-demo-condition-${i}`, 32)}`,
    question,
    tokens: [tokenId(`pmx-demo-token-${i}-yes`), tokenId(`pmx-demo-token-${i}-no`)],
    outcomes: ['Yes', 'No'],
    tickSize,
    minOrderSize: 5_000_000,
    negRisk: false,
    slug: `demo-market-${i + 1}`,
    description: 'A demo market created at start.',
    tags: ['demo'],
  }));
}

export const DEMO_FUNDING = 10_000 * 1_000_000;

export async function seedDemo(
  deps: { markets: MarketRegistry; funding: Funding; risk: RiskBook; openMarket: (m: MarketRecord) => Promise<void> },
  fundAddresses: readonly string[],
): Promise<void> {
  for (const market of demoMarkets()) {
    if (deps.markets.get(market.conditionId) !== undefined) continue;
    await deps.markets.create(market, deps.openMarket);
  }
  for (const address of fundAddresses) {
    if (deps.risk.balance(address.toLowerCase(), COLLATERAL).total === 0)
      await deps.funding.deposit(address, COLLATERAL, DEMO_FUNDING);
  }
}

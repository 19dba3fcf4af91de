// The gateway's matched-but-unconfirmed trades: whose they are (proxy spans as in the ledger) and
// when they go (once the ledger holds their shard's events).
import { describe, expect, it } from 'vitest';
import { Side } from '@pmx/matching';
import type { MatchedTrade } from '../link/core-protocol.ts';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';
import { MatchedTrades } from './matched-trades.ts';

const MARKET = '0xabc';
const market = {
  conditionId: MARKET,
  tokens: ['1', '2'],
  outcomes: ['Yes', 'No'],
  ticksPerUnit: 100,
  makerBaseFee: 0,
  takerBaseFee: 0,
} as unknown as MarketRecord;
const registry = { get: (id: string) => (id === MARKET ? market : undefined) } as unknown as MarketRegistry;

function trade(seq: number, at: number, taker: string, maker: string): MatchedTrade {
  return {
    shard: 0,
    takerKey: 'taker-key',
    makerKeys: ['maker-key'],
    event: {
      type: 'trade',
      seq,
      at,
      tradeId: `0-${seq}`,
      market: MARKET,
      takerOrderId: `t${seq}`,
      takerOwner: taker,
      takerToken: 0,
      takerSide: Side.BUY,
      size: 5_000_000,
      fills: [
        {
          makerOrderId: `m${seq}`,
          makerOwner: maker,
          makerToken: 0,
          makerSide: Side.SELL,
          size: 5_000_000,
          makerPrice: 45,
          takerPrice: 45,
          kind: 0,
        },
      ] as MatchedTrade['event']['fills'],
    },
  };
}

const ids = (trades: { id: string; type: string }[]) => trades.map((t) => `${t.id} ${t.type}`);

describe('MatchedTrades', () => {
  it("shows a proxy's trade to the signer of the span it matched in, not to a signer of another span", () => {
    const store = new MatchedTrades(registry);
    store.add([trade(1, 1_000, '0xother', '0xproxy'), trade(2, 3_000, '0xproxy', '0xother')]);
    // Bob signed for the proxy until 2,000 ms; Alice from then on.
    const bob = { address: '0xbob', proxies: [{ proxy: '0xproxy', from: 0, until: 2_000 }] };
    const alice = { address: '0xalice', proxies: [{ proxy: '0xproxy', from: 2_000, until: Infinity }] };
    expect(ids(store.list(bob))).toEqual(['0-1 MAKER']);
    expect(ids(store.list(alice))).toEqual(['0-2 TAKER']);
    expect(ids(store.list({ address: '0xother', proxies: [] }))).toEqual(['0-2 MAKER', '0-1 TAKER']);
  });

  it('drops a trade once the ledger holds its shard up to its sequence', () => {
    const store = new MatchedTrades(registry);
    store.add([trade(1, 1_000, '0xa', '0xb'), trade(2, 1_001, '0xa', '0xb')]);
    store.confirm(0, 1);
    expect(ids(store.list({ address: '0xa', proxies: [] }))).toEqual(['0-2 TAKER']);
    store.add([trade(1, 1_000, '0xa', '0xb')]);
    expect(store.size).toBe(1);
  });
});

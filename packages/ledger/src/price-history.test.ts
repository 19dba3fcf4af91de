// Price history and candles over price points in embedded ClickHouse (one chdb directory for
// this file): epoch-aligned buckets, the last midpoint per bucket carried forward, windows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouse, type ClickHouseClient } from '@pmx/clickhouse';
import { createTempDir, type TempDir } from '@pmx/testkit';
import { candles } from './candles.ts';
import { ensureHistorySchema, HISTORY_TABLES } from './history-tables.ts';
import { batchPriceHistory, PriceHistoryError, priceHistory } from './price-history.ts';

let dir: TempDir;
let ch: ClickHouseClient;
const T0 = 1_700_000_000 - (1_700_000_000 % 3600); // on the hour

function point(asset: string, kind: 'mid' | 'trade', second: number, price: number, size = 0) {
  return {
    asset_id: asset,
    kind,
    ts: (T0 + second) * 1000,
    ref: `${kind}-${second}`,
    market: 'm',
    price,
    size,
    shard: 0,
    seq: second,
  };
}

const MIDS = [
  point('A', 'mid', 30, 0.5),
  point('A', 'mid', 150, 0.55),
  point('A', 'mid', 170, 0.6),
  point('A', 'mid', 400, 0.52),
];
const TRADES = [
  point('A', 'trade', 10, 0.5, 2_000_000),
  point('A', 'trade', 20, 0.58, 1_000_000),
  point('A', 'trade', 50, 0.49, 3_000_000),
  point('A', 'trade', 70, 0.51, 1_000_000),
];

beforeAll(async () => {
  dir = await createTempDir('pmx-ingest-history-');
  ch = openClickHouse({ path: dir.path });
  await ensureHistorySchema(ch);
  // Inserted twice: a copy repeated after a crash must not count twice.
  for (let i = 0; i < 2; i++)
    await ch.insert({ table: HISTORY_TABLES.pricePoints, values: [...MIDS, ...TRADES], format: 'JSONEachRow' });
});

afterAll(async () => {
  await ch?.close();
  await dir?.remove();
});

const at = (second: number, p: number) => ({ t: T0 + second, p });

describe('priceHistory', () => {
  it('gives one point per minute: the last midpoint of the bucket, carried forward to the end', async () => {
    expect(await priceHistory(ch, 'A', { startTs: T0, endTs: T0 + 600 })).toEqual([
      at(0, 0.5),
      at(60, 0.5),
      at(120, 0.6),
      at(180, 0.6),
      at(240, 0.6),
      at(300, 0.6),
      at(360, 0.52),
      at(420, 0.52),
      at(480, 0.52),
      at(540, 0.52),
      at(600, 0.52),
    ]);
  });

  it('honours fidelity in minutes, and starts from the midpoint in force before the window', async () => {
    expect(await priceHistory(ch, 'A', { startTs: T0, endTs: T0 + 600, fidelity: 5 })).toEqual([
      at(0, 0.6),
      at(300, 0.52),
      at(600, 0.52),
    ]);
    expect(await priceHistory(ch, 'A', { startTs: T0 + 200, endTs: T0 + 300 })).toEqual([
      at(180, 0.6),
      at(240, 0.6),
      at(300, 0.6),
    ]);
    // The price in force is looked for in widening windows (a day, 30 days, everything).
    for (const days of [2, 40]) {
      const start = T0 + days * 86_400;
      expect(await priceHistory(ch, 'A', { startTs: start, endTs: start + 120 })).toEqual([
        at(days * 86_400, 0.52),
        at(days * 86_400 + 60, 0.52),
        at(days * 86_400 + 120, 0.52),
      ]);
    }
  });

  it('takes a window from an interval ending now, or everything since the first point for max', async () => {
    const now = T0 + 600;
    const all = await priceHistory(ch, 'A', { startTs: T0, endTs: now });
    expect(await priceHistory(ch, 'A', { interval: '1h', now })).toEqual(all);
    expect(await priceHistory(ch, 'A', { interval: 'max', now })).toEqual(all);
    expect(await priceHistory(ch, 'A', { now })).toEqual(all);
    expect(await priceHistory(ch, 'A', { interval: '1h', now: T0 + 7200 + 600 })).toEqual(
      Array.from({ length: 61 }, (_, i) => at(7200 + 600 - 3600 + i * 60, 0.52)),
    );
  });

  it('can follow trade prices instead of midpoints', async () => {
    expect(await priceHistory(ch, 'A', { startTs: T0, endTs: T0 + 120, source: 'trade' })).toEqual([
      at(0, 0.49),
      at(60, 0.51),
      at(120, 0.51),
    ]);
  });

  it('answers [] for a token without history and refuses bad options', async () => {
    expect(await priceHistory(ch, 'nothing', { interval: 'max' })).toEqual([]);
    await expect(priceHistory(ch, 'A', { fidelity: 0 })).rejects.toBeInstanceOf(PriceHistoryError);
    await expect(priceHistory(ch, 'A', { interval: '2h' as never })).rejects.toThrow(
      /interval must be one of 1m, 1w, 1d, 6h, 1h, max/,
    );
  });

  it('widens the step instead of answering an unbounded number of points', async () => {
    const points = await priceHistory(ch, 'A', { startTs: T0, endTs: T0 + 30 * 86_400 });
    expect(points.length).toBeLessThanOrEqual(10_001);
    expect(points[1]!.t - points[0]!.t).toBe(300);
  });
});

describe('batchPriceHistory', () => {
  it('answers {history: {token: points}} for each token asked', async () => {
    const result = await batchPriceHistory(ch, ['A', 'nothing'], { startTs: T0, endTs: T0 + 600, fidelity: 5 });
    expect(result).toEqual({ history: { A: [at(0, 0.6), at(300, 0.52), at(600, 0.52)], nothing: [] } });
  });

  it('orders points of one millisecond by sequence, not by the text of their refs', async () => {
    // Two batches in one ms, seq 9 then 10 (as text "…-9" sorts after "…-10"); a trade filling
    // eleven makers at one ts (fill "#9" sorts after "#10").
    const ts = (T0 + 7200) * 1000;
    const mids = [9, 10].map((seq) => ({
      asset_id: 'S',
      kind: 'mid',
      ts,
      ref: `0-${seq}`,
      market: 'm',
      price: seq / 100,
      size: 0,
      shard: 0,
      seq,
    }));
    const fills = Array.from({ length: 11 }, (_, idx) => ({
      asset_id: 'S',
      kind: 'trade',
      ts,
      ref: `0-20#${idx}`,
      market: 'm',
      price: (30 + idx) / 100,
      size: 1_000_000,
      shard: 0,
      seq: 20,
    }));
    await ch.insert({ table: HISTORY_TABLES.pricePoints, values: [...mids, ...fills], format: 'JSONEachRow' });
    expect(await priceHistory(ch, 'S', { startTs: T0 + 7200, endTs: T0 + 7200, fidelity: 1 })).toEqual([
      { t: T0 + 7200, p: 0.1 },
    ]);
    expect(await priceHistory(ch, 'S', { startTs: T0 + 7260, endTs: T0 + 7260, fidelity: 1 })).toEqual([
      { t: T0 + 7260, p: 0.1 },
    ]);
    expect(await candles(ch, { assetId: 'S', interval: '1m', startTs: T0 + 7200, endTs: T0 + 7260 })).toMatchObject([
      { open: 0.3, close: 0.4 },
    ]);
  });

  it('refuses more than 20 tokens', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    await expect(batchPriceHistory(ch, many)).rejects.toThrow('too many markets: 21, max allowed: 20');
  });
});

describe('candles', () => {
  it('gives open, high, low, close and volume per minute from the fills, each counted once', async () => {
    expect(await candles(ch, { assetId: 'A', interval: '1m', startTs: T0, endTs: T0 + 600 })).toEqual([
      { t: T0, open: 0.5, high: 0.58, low: 0.49, close: 0.49, volume: 6, trades: 3 },
      { t: T0 + 60, open: 0.51, high: 0.51, low: 0.51, close: 0.51, volume: 1, trades: 1 },
    ]);
    expect(await candles(ch, { assetId: 'A', interval: '1h', startTs: T0, endTs: T0 + 600 })).toEqual([
      { t: T0, open: 0.5, high: 0.58, low: 0.49, close: 0.51, volume: 7, trades: 4 },
    ]);
  });
});

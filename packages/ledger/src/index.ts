// Public surface of @pmx/ledger: the read side of the ledger and history that the front end mounts
// (GET /data/trades, /builder/trades, /trades, /prices-history, POST /batch-prices-history), the
// ledger's invariant check, and the follower that copies the ledger's history into ClickHouse.
export {
  listTrades,
  builderTrades,
  buildersOf,
  DEFAULT_TRADE_LIMIT,
  type Trade,
  type MakerOrder,
  type TradeQuery,
  type TradePage,
  type BuilderTradeQuery,
} from './trades.ts';
export { recentTrades, type PublicTrade, type RecentTradesQuery } from './recent-trades.ts';
export {
  priceHistory,
  batchPriceHistory,
  isPriceInterval,
  PriceHistoryError,
  PRICE_INTERVALS,
  MAX_BATCH_PRICE_HISTORY_MARKETS,
  MAX_HISTORY_POINTS,
  type PriceInterval,
  type PriceHistoryOptions,
  type PricePoint,
} from './price-history.ts';
export { candles, CANDLE_INTERVALS, type Candle, type CandleInterval, type CandleQuery } from './candles.ts';
export { checkLedger } from './ledger-check.ts';
export { ensureHistorySchema, HISTORY_TABLES, type PricePointKind } from './history-tables.ts';
export { ticksPerUnitOf } from './ticks.ts';
export { trimDecimal } from './decimal-text.ts';
export { HistoryFollower, type HistoryFollowerOptions } from './history/history-follower.ts';

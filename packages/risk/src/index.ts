// Public surface of @pmx/risk.
export {
  RiskBook,
  COLLATERAL,
  type Balance,
  type BuyLimit,
  type RiskMarket,
  type ReserveOutcome,
} from './risk-book.ts';
export { collateralFor, orderCost, type OrderTerms } from './order-cost.ts';
export { settleTrade, type FillLike, type OrderParty, type TradeLike } from './settlement.ts';

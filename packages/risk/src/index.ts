// Public surface of @pmx/risk.
export {
  RiskBook,
  COLLATERAL,
  type Balance,
  type BuyLimit,
  type RiskMarket,
  type ReserveOutcome,
  type CustodyHold,
  type HoldOutcome,
} from './risk-book.ts';
export { type MarketFunds } from './market-collateral.ts';
export { redemptionValue, halves, type RedemptionValue } from './redemption.ts';
export { collateralFor, orderCost, type OrderTerms } from './order-cost.ts';
export {
  settleTrade,
  settleCustody,
  type CustodyLike,
  type FillLike,
  type OrderParty,
  type TradeLike,
} from './settlement.ts';

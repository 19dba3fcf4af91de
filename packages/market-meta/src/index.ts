// Public surface of @pmx/market-meta: what the read services (clob listing, catalog, account data)
// know of order-book markets from outside their own tables.
export {
  CatalogLinks,
  readCatalogLinks,
  catalogMetadata,
  affectsLinks,
  negRiskMarketId,
  CATALOG_CHANNEL,
  type CatalogLink,
  type CatalogLinksOptions,
  type CatalogEventSummary,
} from './catalog-links.ts';
export { readClobPrices, ClobPriceFeed, type ClobPriceFeedOptions } from './clob-prices.ts';
export { PeriodicRefresh } from './periodic-refresh.ts';

// Public surface of @pmx/codec.
export * from './decimal.ts';
export * from './order-terms.ts';
export * from './iso-date.ts';
export * from './hex.ts';

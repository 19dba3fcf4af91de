// Test-only surface of @pmx/data (`@pmx/data/testing`): a real account-data service per test.
export * from './data-harness.ts';

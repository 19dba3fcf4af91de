// Test-only surface of @pmx/catalog (`@pmx/catalog/testing`): a real catalog per test file.
export * from './catalog-harness.ts';

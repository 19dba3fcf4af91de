// Test-only surface of @pmx/edge (`@pmx/edge/testing`): HAProxy with the rendered config in front
// of the services a test started.
export * from './edge-harness.ts';

// Public surface of @pmx/matching: the engine, its plain-data vocabulary and book views.
export { MatchingEngine, type EngineSnapshot, type OpenOrder } from './engine.ts';
export * from './types.ts';
export { describeRejection } from './rejections.ts';

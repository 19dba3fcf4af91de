// Public surface of @pmx/events: the shard protocol and event stream every service shares.
export * from './shard-events.ts';
export * from './lifecycle.ts';

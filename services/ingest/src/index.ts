// Public surface of @pmx/ingest: start it in-process (tests, bench). Its read side is @pmx/ledger.
export { startIngest, type Ingest, type IngestOptions } from './ingest.ts';
export { loadIngestConfig, type IngestConfig } from './config.ts';
export { ShardLedger, LEDGER_CHANNEL, SequenceReuseError, type ApplyOutcome } from './ledger/shard-ledger.ts';
export { MarketDirectory, UnknownMarketError } from './ledger/market-directory.ts';
export { ShardConsumer, SequenceGapError, type CommittedBatch } from './queue/shard-consumer.ts';

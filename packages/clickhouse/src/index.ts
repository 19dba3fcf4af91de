// Public surface of @pmx/clickhouse: one ClickHouse client, over a server or embedded chdb.
export { openClickHouse, type ClickHouseClient, type OpenClickHouseOptions } from './open-clickhouse.ts';

#!/usr/bin/env bash
# Starts the pmx services on this machine (after infra/setup.sh): ingest (shard queues → the
# Postgres ledger) and the trading front end (services/clob, port 8080, with demo markets; it also
# copies the history into embedded ClickHouse and serves it). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."

export PMX_DEMO_MARKETS="${PMX_DEMO_MARKETS:-true}"

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

pnpm --silent --filter @pmx/ingest start &
pids+=($!)
pnpm --silent --filter @pmx/clob start &
pids+=($!)

# Exit as soon as any service exits, taking the others down with it.
wait -n

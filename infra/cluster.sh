#!/usr/bin/env bash
# Starts pmx as a cluster on this machine (after infra/setup.sh; docs/guides/cluster.md): the demo
# catalog, ingest (once for every shard queue), a core and a standby core, N gateways, catalog
# and account-data replicas, and the edge balancing them on the public ports. Each process runs
# under a supervisor loop of its own that starts it again when it dies, so a dead ingest, gateway
# or catalog stops nothing else. Ctrl-C stops everything.
#
#   PMX_GATEWAYS   gateways (default: one per CPU core, at least 2)
#   PMX_REPLICAS   catalog and account-data replicas each (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

cores=$(nproc 2>/dev/null || echo 2)
GATEWAYS=${PMX_GATEWAYS:-$((cores < 2 ? 2 : cores))}
REPLICAS=${PMX_REPLICAS:-2}
CORE_PORTS=(8090 8091)
RUN=${PMX_CLUSTER_RUN_DIR:-${TMPDIR:-/tmp}/pmx-cluster}
mkdir -p "$RUN"
case "$GATEWAYS$REPLICAS" in *[!0-9]*) echo "cluster: PMX_GATEWAYS and PMX_REPLICAS must be whole numbers" >&2; exit 1 ;; esac

# Every process shares the shard count and the operator key (ingest and the cores must agree).
export PMX_SHARDS=${PMX_SHARDS:-$cores}
export PMX_CORE_URLS="ws://127.0.0.1:${CORE_PORTS[0]},ws://127.0.0.1:${CORE_PORTS[1]}"
# Gateways share the machine: a verify thread each by default, not one per core each.
export PMX_VERIFY_THREADS=${PMX_VERIFY_THREADS:-1}

case "$(printf '%s' "${PMX_DEMO_DATA:-true}" | tr '[:upper:]' '[:lower:]')" in
  true | 1 | yes | on | '') pnpm --silent --filter @pmx/catalog load-demo ;;
esac

set -m
pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

# supervise NAME ENV... -- COMMAND...: runs COMMAND with ENV, again a second after each exit, its
# output prefixed with NAME. The loop and its process are one process group (stopped together).
supervise() {
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  (
    trap 'kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM INT
    while true; do
      env "${envs[@]}" "$@" > >(sed -u "s/^/[$name] /") 2>&1 &
      child=$!
      wait "$child" || true
      echo "[$name] exited; starting it again in 1 s" >&2
      sleep 1
    done
  ) &
  pids+=($!)
}

node_run=(node --import tsx)
supervise ingest -- "${node_run[@]}" services/ingest/src/main.ts
# Both cores stand by for the shard locks: the first to take them is active, a restarted one waits.
for i in 0 1; do
  supervise "core$i" PMX_CORE_PORT="${CORE_PORTS[$i]}" PMX_CORE_STANDBY=true -- "${node_run[@]}" services/clob/src/core-main.ts
done

gateway_servers=()
for i in $(seq 0 $((GATEWAYS - 1))); do
  port=$((18100 + i))
  socket="$RUN/gateway-$port.sock"
  gateway_servers+=("unix@$socket")
  # Embedded ClickHouse opens in one process: the first gateway copies and serves the history.
  history=false
  [ "$i" = 0 ] && history=true
  supervise "gateway$i" PMX_CLOB_DIRECT_PORT="$port" PMX_CLOB_SOCKET="$socket" PMX_HISTORY="$history" \
    -- "${node_run[@]}" services/clob/src/gateway-main.ts
done

catalog_servers=()
data_servers=()
for i in $(seq 0 $((REPLICAS - 1))); do
  port=$((18200 + i))
  socket="$RUN/catalog-$port.sock"
  catalog_servers+=("unix@$socket")
  # Outcome prices come from a gateway's book view (any gateway's is the same).
  supervise "catalog$i" PMX_CATALOG_DIRECT_PORT="$port" PMX_CATALOG_SOCKET="$socket" \
    PMX_CATALOG_CLOB_URL="http://127.0.0.1:$((18100 + i % GATEWAYS))" \
    -- "${node_run[@]}" services/catalog/src/main.ts
  if [ -d services/data ]; then
    port=$((18300 + i))
    socket="$RUN/data-$port.sock"
    data_servers+=("unix@$socket")
    supervise "data$i" PMX_DATA_DIRECT_PORT="$port" PMX_DATA_SOCKET="$socket" \
      PMX_DATA_CLOB_URL="http://127.0.0.1:$((18100 + i % GATEWAYS))" \
      -- "${node_run[@]}" services/data/src/main.ts
  fi
done

join() { local IFS=,; echo "$*"; }
edge_env=(
  PMX_EDGE_CLOB_SERVERS="$(join "${gateway_servers[@]}")"
  PMX_EDGE_HISTORY_SERVERS="${gateway_servers[0]}"
  PMX_EDGE_CORE_SERVERS="127.0.0.1:${CORE_PORTS[0]},127.0.0.1:${CORE_PORTS[1]}"
  PMX_EDGE_CATALOG_SERVERS="$(join "${catalog_servers[@]}")"
  PMX_EDGE_RUN_DIR="$RUN/edge"
)
[ "${#data_servers[@]}" -gt 0 ] && edge_env+=(PMX_EDGE_DATA_SERVERS="$(join "${data_servers[@]}")")
supervise edge "${edge_env[@]}" -- "${node_run[@]}" services/edge/src/main.ts

echo "cluster: edge on :8080 (order book), :8081 (catalog), :8082 (account data); $GATEWAYS gateways, 2 cores (one standby), $REPLICAS replicas each of catalog and data; Ctrl-C stops it all" >&2
wait

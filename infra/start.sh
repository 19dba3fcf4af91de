#!/usr/bin/env bash
# Starts the pmx services on this machine (after infra/setup.sh): the demo catalog is loaded first
# (idempotent; it also creates the matching order-book markets), then ingest (shard queues → the
# Postgres ledger), the trading front end (services/clob; it also copies the history into
# embedded ClickHouse and serves it), the catalog (services/catalog), the account data (services/data) and the edge (services/edge:
# HAProxy on the public ports 8080, 8081 and 8082, in front of the services' Unix sockets;
# Prometheus metrics on 127.0.0.1:8404). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."

# The same words as every other PMX_ switch (true/false/1/0/yes/no/on/off, any case).
case "$(printf '%s' "${PMX_DEMO_DATA:-true}" | tr '[:upper:]' '[:lower:]' | tr -d '[:space:]')" in
  true | 1 | yes | on | '') pnpm --silent --filter @pmx/catalog load-demo ;;
  false | 0 | no | off) ;;
  *) echo "start: config: PMX_DEMO_DATA must be one of true/false/1/0/yes/no/on/off, got \"$PMX_DEMO_DATA\"" >&2; exit 1 ;;
esac

# Each service in a process group of its own (job control), so that stopping one stops the whole
# group: pnpm does not pass signals on, and killing only its pid left the node process running,
# holding its port.
set -m
pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

# Started as `pnpm start` (pnpm sets npm_lifecycle_event), a SIGTERM (a supervisor's stop,
# `docker stop`) reaches pnpm, which exits without passing it on, and this script with its services
# would run on, holding their ports. So then, when pnpm goes (this script is re-parented),
# everything stops. Started otherwise (`nohup bash infra/start.sh &`, then logging out), it runs on.
if [ -n "${npm_lifecycle_event:-}" ]; then
  parent=$PPID
  (
    while [ "$(cut -d' ' -f4 "/proc/$$/stat" 2>/dev/null)" = "$parent" ]; do sleep 1; done
    echo "start: the package manager that started this script exited; stopping the services" >&2
  ) &
  pids+=($!)
fi

pnpm --silent --filter @pmx/ingest start &
pids+=($!)
pnpm --silent --filter @pmx/clob start &
pids+=($!)
pnpm --silent --filter @pmx/catalog start &
pids+=($!)
pnpm --silent --filter @pmx/data start &
pnpm --silent --filter @pmx/edge start &
pids+=($!)

# Exit as soon as any service exits, taking the others down with it.
wait -n

#!/usr/bin/env bash
# One command to run pmx on this machine: set-up (idempotent), then the services.
set -euo pipefail
cd "$(dirname "$0")/.."
bash infra/setup.sh
exec bash infra/start.sh

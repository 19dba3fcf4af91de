#!/usr/bin/env bash
# Starts the pmx services (root `pnpm start`, after infra/setup.sh). None exist yet.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "pmx: no services to start yet (see issues)"

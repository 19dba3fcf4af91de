#!/usr/bin/env bash
# The whole check, runnable alone on a fresh machine: set-up, typecheck, lint, then every test.
# Runs the tests even when the typecheck or lint fails, fails if either does, and ends with a plain
# "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."

bash infra/setup.sh || { echo "test: ERROR: set-up failed" >&2; exit 1; }

status=0
echo "test: typecheck"
pnpm run typecheck || { status=1; echo "test: typecheck FAILED" >&2; }

echo "test: lint (prettier, eslint, madge)"
pnpm exec prettier --check --log-level warn . || { status=1; echo "test: formatting FAILED (pnpm format fixes it)" >&2; }
pnpm exec eslint --quiet . || { status=1; echo "test: eslint FAILED" >&2; }
pnpm exec madge --circular --no-spinner packages services bench test >/dev/null || {
  status=1; echo "test: circular imports FAILED (pnpm exec madge --circular packages services bench test)" >&2; }

echo "test: vitest run"
report=$(mktemp -t pmx-vitest-XXXXXX.json)
trap 'rm -f "$report"' EXIT
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" || status=1

[ "$status" = 0 ] || echo "test: FAILED (see above)" >&2
node -e '
  const fs = require("node:fs");
  let r = {};
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
  const n = (k) => r[k] ?? 0;
  const skipped = n("numPendingTests") + n("numTodoTests");
  console.log(`test: ${n("numPassedTests")} passed, ${n("numFailedTests")} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
exit "$status"

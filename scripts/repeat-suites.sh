#!/usr/bin/env bash
# Runs the integration and e2e suites N times in a row (default 20) on a clean clone of HEAD, with
# ../shared beside it as CI has it, and prints how many runs failed. A test that fails now and then
# is a defect: any failed run's output is kept in the printed log folder.
#   scripts/repeat-suites.sh [RUNS] [vitest paths...]
set -uo pipefail
runs=${1:-20}
shift || true
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(test/integration test/e2e)

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/repeat-suites.XXXXXX)
logs="$work/logs"
mkdir -p "$logs"
git clone -q "$repo" "$work/main" || exit 1
ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
cd "$work/main" || exit 1
npm ci --no-audit --no-fund >"$logs/npm-ci.log" 2>&1 || { echo "npm ci failed: $logs/npm-ci.log"; exit 1; }
npm run build >"$logs/build.log" 2>&1 || { echo "build failed: $logs/build.log"; exit 1; }

failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if npx vitest run "${suites[@]}" >"$logs/run-$i.log" 2>&1; then
    outcome=passed
    rm -f "$logs/run-$i.log"
  else
    outcome="FAILED ($logs/run-$i.log)"
    failed=$((failed + 1))
  fi
  tests=$(grep -aE '^ +Tests ' "$logs/run-$i.log" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | tr -s ' ')
  echo "run $i/$runs: $outcome in $(( $(date +%s) - start )) s ${tests}"
done
echo "${suites[*]}: $runs runs, $((runs - failed)) passed, $failed failed (logs: $logs)"
[ "$failed" -eq 0 ]

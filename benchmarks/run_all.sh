#!/usr/bin/env bash
# The full side-by-side run behind RESULTS.md: every shared domain, two workers (the
# machine has 2 cores), one JSON per domain in benchmarks/.cache, then one report.
# Times are CPU seconds on every side, so the two workers do not skew the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
OUT=benchmarks/.cache
mkdir -p "$OUT"
run() {  # run DOMAIN [extra args]: one domain into its JSON
  local d=$1; shift
  "$PY" benchmarks/bench_planners.py --domains "$d" --goap 0 --out "$OUT/$d.md" \
    --json "$OUT/$d.json" "$@" > "$OUT/$d.log" 2>&1
}
worker_a() { for d in blocks logistics miconic sokoban psr-small woodworking; do run "$d"; done
             run movie --goap 500; }
worker_b() { for d in freecell gripper pegsol openstacks parcprinter scanalyzer tpp transport; do
               run "$d"; done; }
worker_a & a=$!
worker_b & b=$!
wait "$a" "$b"
"$PY" benchmarks/bench_planners.py --merge "$OUT"/*.json --out benchmarks/RESULTS.md

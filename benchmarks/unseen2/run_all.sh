#!/usr/bin/env bash
# The runs behind RESULTS.md: two workers (the machine has 2 cores), then one report.
# Needs: pip install -e '.[bench]' up-fast-downward unified-planning
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
OUT=${OUT:-benchmarks/unseen2/results}
mkdir -p "$OUT"
$PY benchmarks/unseen2/gen.py
R="$PY -W ignore benchmarks/unseen2/run.py"
( $R --domains nomystery parking spanner floortile --json "$OUT/a.json"
  $R --domains briefcase switches blocks-eq gripper-either keys hierarchy --json "$OUT/f.json"
  $R --only sas --domains nomystery parking spanner floortile briefcase switches blocks-eq \
     --json "$OUT/sa.json" ) &
( $R --domains elevators driverlog zenotravel --json "$OUT/b.json"
  $R --only fd fd_greedy sas astar --domains floortile-costs elevators-costs --json "$OUT/c.json"
  $R --only sas --domains elevators driverlog zenotravel gripper-either keys hierarchy \
     --json "$OUT/sb.json" ) &
wait
$PY benchmarks/unseen2/report.py benchmarks/unseen2/TABLES.md "$OUT"/{a,b,f,c,sa,sb}.json

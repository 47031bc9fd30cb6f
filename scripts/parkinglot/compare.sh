#!/usr/bin/env bash
# The parking lot in ns-2.35 TCP/Linux beside tcpfluid's two engines running the same
# senders (linux variants, SACK: parking-lot-linux.yaml), seeds 1..N (default 5), and who
# loses at each overflow of hops h1, h3 and h4 in ns-2 (drops more than 0.5 s apart are
# two overflows; the first 10 s left out). Needs ns2 and python3; about 30 s of ns-2 and
# 5 s of tcpfluid a seed. docs/validation.md gives the numbers of 2026-12-08.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
work=$(mktemp -d)
go build -o "$work/tcpfluid" ./cmd/tcpfluid
n=${1:-5}
for s in $(seq 1 "$n"); do
  (cd "$work" && ns "$here/parkinglot-ns2.tcl" "$s" | grep '^E' > "E_$s.txt")
  "$work/tcpfluid" run --scenario "$here/parkinglot-linux.yaml" --engine packet --seed "$s" --format json > "$work/p_$s.json"
  "$work/tcpfluid" run --scenario "$here/parkinglot-linux.yaml" --form hybrid-recovery --seed "$s" --format json > "$work/f_$s.json"
done
python3 "$here/tables.py" "$work" "$n"

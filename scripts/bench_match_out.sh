#!/usr/bin/env bash
# The cost of a match's --out file kept as it goes: interleaved runs of a
# 40,000-game match (random moves against random moves, one thread, seed
# 5223) by each binary given, ROUNDS times, with RUST_LOG=gulbara=debug;
# from each binary's "match file written" events it prints the writes per
# run, the seconds spent writing per run (medians over the runs) and the
# median time of a write of a file over 5 MB. Binaries without those
# events (before 2026-12-07) print nothing for the writes.
#   scripts/bench_match_out.sh ROUNDS BINARY...
set -euo pipefail
rounds="$1"
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
engines=(--engine cmd=builtin:random name=a option.engine.seed=1
         --engine cmd=builtin:random name=b option.engine.seed=2)
for round in $(seq "$rounds"); do
  n=0
  for bin in "$@"; do
    n=$((n + 1))
    RUST_LOG=gulbara=debug "$bin" match "${engines[@]}" --games 40000 --seed 5223 -j 1 \
      --no-progress --out "$dir/out-$n.json" >/dev/null 2>"$dir/log-$n-$round.txt"
  done
done
n=0
for bin in "$@"; do
  n=$((n + 1))
  python3 - "$bin" "$dir"/log-$n-*.txt <<'PY'
import re, statistics as st, sys
runs, big = [], []
for f in sys.argv[2:]:
    rows = [tuple(map(int, m.groups())) for l in open(f)
            for m in [re.search(r"pairs=(\d+) bytes=(\d+) micros=(\d+)", l)] if m]
    runs.append((len(rows), sum(r[2] for r in rows) / 1e6, sum(r[1] for r in rows) / 1e6))
    big += [r[2] / 1e3 for r in rows if r[1] > 5e6]
if runs and runs[0][0]:
    print(f"{sys.argv[1]}: {st.median(r[0] for r in runs)} writes a run, "
          f"{st.median(r[1] for r in runs):.3f} s writing a run, "
          f"{st.median(r[2] for r in runs):.1f} MB written a run; "
          f"a write over 5 MB: median {st.median(big) if big else float('nan'):.1f} ms ({len(big)} writes)")
PY
done

#!/usr/bin/env bash
# Re-runs the matches of docs/STRENGTH.md's table with the release binary and writes
# each summary to OUT/<name>.txt (with the wall time). About 30 minutes on 2 cores.
#   scripts/strength_table.sh [OUT] [OLD_WEIGHTS]
# OLD_WEIGHTS: a weights file to play the shipped network against (optional), e.g.
#   git show 25b27f7:src/eval/gulbara.gbnn > old.gbnn
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-strength}"
old="${2:-}"
mkdir -p "$out"
cargo build --release --quiet
B="$PWD/target/release/gulbara"
run() {
  local name="$1"
  shift
  echo "== $name"
  /usr/bin/time -f "wall %e s" "$B" match --no-progress "$@" >"$out/$name.txt" 2>&1
  cat "$out/$name.txt"
}
heur0=(--engine "cmd=$B" name=baseline-0ply option.engine.eval=heuristic option.engine.ply=1)
heur1=(--engine "cmd=$B" name=baseline-1ply option.engine.eval=heuristic option.engine.ply=2)
run net0_vs_baseline0 --engine "cmd=$B" name=net-0ply option.engine.ply=1 "${heur0[@]}" \
  --games 4000 --seed 5000 -j 2
run net1_vs_baseline1 --engine "cmd=$B" name=net-1ply option.engine.ply=2 "${heur1[@]}" \
  --games 4000 --seed 5001 -j 2
if [ -n "$old" ]; then
  run net0_vs_old0 --engine "cmd=$B" name=net-0ply option.engine.ply=1 \
    --engine "cmd=$B" name=old-0ply option.engine.ply=1 "option.engine.weights=$old" \
    --games 2000 --seed 5002 -j 2
fi
run baseline0_vs_random "${heur0[@]}" --engine cmd=builtin:random name=random \
  --games 2000 --seed 2026 -j 2
run selfplay_speed --engine "cmd=$B" name=a option.engine.ply=1 \
  --engine "cmd=$B" name=b option.engine.ply=1 --games 400 --seed 601 -j 2

#!/usr/bin/env bash
# A 0-ply vs 1-ply match of the baseline player (gnubg's plies; engine.ply 1 vs 2),
# spawned engines over the protocol, mirrored dice pairs. Prints the summary.
#   scripts/match_0ply_vs_1ply.sh [GAMES] [SEED] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
seed="${2:-1}"
jobs="${3:-2}"
cargo build --release --quiet
bin="$PWD/target/release/gulbara"
"$bin" match \
  --engine cmd="$bin" name=baseline-0ply option.engine.eval=heuristic option.engine.ply=1 \
  --engine cmd="$bin" name=baseline-1ply option.engine.eval=heuristic option.engine.ply=2 \
  --games "$games" --seed "$seed" -j "$jobs" --luck-adjust

#!/usr/bin/env bash
# The Greek and Bulgarian games' strength table (docs/STRENGTH.md): each
# game's network against its baseline at 0-ply and 1-ply (gnubg's naming;
# engine.ply 1 and 2), and the rotating matches, network against baseline.
#
#   scripts/greek-strength.sh [GAMES] [MATCHES] [JOBS]
#
# Defaults: 4000 games, 400 matches to 5 points, 1 job.
set -euo pipefail
games=${1:-4000}
matches=${2:-400}
jobs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${GULBARA:-$root/target/release/gulbara}
[ -x "$bin" ] || (cd "$root" && cargo build --release --quiet)
pair() {
    local ply=$1
    echo "--engine cmd=builtin:net name=net option.engine.ply=$ply --engine cmd=builtin:heuristic name=baseline option.engine.ply=$ply"
}
for ply in 1 2; do
    for v in fevga portes tabla plakoto tapa; do
        echo "== $v net vs baseline, engine.ply=$ply, $games games, seed 2026"
        # shellcheck disable=SC2046
        "$bin" match --variant "$v" $(pair "$ply") --games "$games" --seed 2026 -j "$jobs" --no-progress
    done
done
for rot in portes,plakoto,fevga tabla,gulbara,tapa; do
    echo "== rotation $rot to 5, net vs baseline, engine.ply=1, $matches matches, seed 2026"
    # shellcheck disable=SC2046
    "$bin" match --rotation "$rot" --match-to 5 $(pair 1) --games "$matches" --seed 2026 -j "$jobs" --no-progress
done

#!/usr/bin/env bash
# Agreement of gulbara's cube decisions with GNU Backgammon's (docs/STRENGTH.md,
# "Backgammon with the cube").
#
#   scripts/cube_agreement.sh [GAMES] [POSITIONS] [PLY] [SEED]
#
# gnubg plays GAMES money games against itself at 0-ply with the cube on
# (seed SEED), and exports them; then POSITIONS positions before a roll are
# taken from them and each is asked in six contexts (money with the cube
# centred and owned, 7-point matches at 0-0, 2-4, 4-2 and 3-6 post-Crawford):
# gnubg's `hint` at its default evaluation (2-ply), gulbara's cube decision
# at engine.ply PLY (2 = gnubg's 1-ply). Prints a table of agreement.
# Needs gnubg (apt-get install gnubg). Takes under a minute at the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100}" positions="${2:-400}" ply="${3:-2}" seed="${4:-20261204}"
gnubg="${GNUBG:-/usr/games/gnubg}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home"
{
  echo "set player 0 gnubg"
  echo "set player 1 gnubg"
  for p in 0 1; do
    echo "set player $p chequerplay evaluation plies 0"
    echo "set player $p cubedecision evaluation plies 0"
  done
  echo "set cube use on"
  echo "set jacoby off"
  echo "set beavers 0"
  echo "set automatic game off"
  echo "set seed $seed"
  for _ in $(seq "$games"); do echo "new game"; done
  echo "export match mat $work/games.mat"
} > "$work/cmds.txt"
HOME="$work/home" "$gnubg" -t -q < "$work/cmds.txt" > "$work/gnubg.out" 2>&1
cargo build --release --quiet --example cube_agreement
target/release/examples/cube_agreement "$work/games.mat" "$gnubg" "$positions" "$ply"

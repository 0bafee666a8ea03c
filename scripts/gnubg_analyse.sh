#!/usr/bin/env bash
# GNU Backgammon's own analysis of .mat files (e.g. those `scripts/vs_gnubg.sh -o DIR`
# keeps): each file is imported, analysed at the given ply (checker play only; the games
# are cubeless) and its per-player statistics printed; then the error rates of all files
# are summed per player: average equity lost per checker-play decision, in millipoints
# (gnubg's "Error rate mEMG" over its unforced moves).
#
#   scripts/gnubg_analyse.sh [-p PLY] FILE.mat ...
set -euo pipefail
ply=2
while getopts "p:" opt; do
    case $opt in
        p) ply=$OPTARG ;;
        *) sed -n 2,9p "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
gnubg=${GNUBG:-/usr/games/gnubg}
[ -x "$gnubg" ] || { echo "gnubg_analyse: no gnubg at $gnubg" >&2; exit 1; }
[ $# -gt 0 ] || { echo "gnubg_analyse: no files" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
for f in "$@"; do
    {
        echo "set threads 1"
        echo "set analysis chequerplay evaluation plies $ply"
        echo "set analysis chequerplay evaluation cubeful off"
        echo "set analysis chequerplay evaluation prune off"
        echo "set analysis cube off"
        echo "set analysis luck off"
        echo "import mat $f"
        echo "analyse match"
        echo "show statistics match"
    } > "$work/cmds.txt"
    # A home of its own: no race with another gnubg over creating ~/.gnubg
    # where gnubg never ran, and no user settings in the analysis.
    HOME="$work/home" "$gnubg" -t -q < "$work/cmds.txt" 2>&1
done | awk '
    /^Player / { p0 = $2; p1 = $3 }
    /^Unforced moves/ { u0 += $3; u1 += $4; seen = 1 }
    /^Chequerplay statistics/ { inchq = 1 }
    inchq && /^Error total EMG/ { e0 += $5; e1 += $8; inchq = 0 }
    END {
        if (!seen) { print "gnubg_analyse: no statistics"; exit 1 }
        printf "%s: %d unforced moves, error rate %.1f mEMG per move\n", p0, u0, (u0 ? -1000 * e0 / u0 : 0)
        printf "%s: %d unforced moves, error rate %.1f mEMG per move\n", p1, u1, (u1 ? -1000 * e1 / u1 : 0)
    }'

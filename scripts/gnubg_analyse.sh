#!/usr/bin/env bash
# GNU Backgammon's own analysis of .mat files (e.g. those `scripts/vs_gnubg.sh -o DIR`
# keeps): each file is imported, analysed at the given ply (checker play only; the games
# are cubeless) and its per-player statistics printed; then the error rates of all files
# are summed per player: average equity lost per checker-play decision, in millipoints
# (gnubg's "Error rate mEMG" over its unforced moves).
#
#   scripts/gnubg_analyse.sh [-p PLY] [-c] FILE.mat ...
#
# -c analyses the cube decisions instead (games played with the cube): gnubg's
# cubeful analysis at the given ply, checker play not analysed; per player the
# cube decisions gnubg counts as close or actual, the errors by kind, and the
# error rate in mEMG per such decision (money: EMG; matches: gnubg's EMG
# normalisation of MWC). Money games are judged with the Jacoby rule off and no
# beavers, as vs_gnubg.sh plays them.
set -euo pipefail
ply=2
cube=0
while getopts "p:c" opt; do
    case $opt in
        p) ply=$OPTARG ;;
        c) cube=1 ;;
        *) sed -n 2,16p "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
gnubg=${GNUBG:-/usr/games/gnubg}
[ -x "$gnubg" ] || { echo "gnubg_analyse: no gnubg at $gnubg" >&2; exit 1; }
[ $# -gt 0 ] || { echo "gnubg_analyse: no files" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
if [ "$cube" = 1 ]; then
    # The rules vs_gnubg.sh plays money games with (a .mat file does not say
    # them, and gnubg's own defaults differ).
    settings="set jacoby off
set beavers 0
set analysis moves off
set analysis cube on
set analysis cubedecision evaluation plies $ply
set analysis cubedecision evaluation cubeful on
set analysis cubedecision evaluation prune off
set analysis luck off"
    report='
    # Columns: the label, then per player a count, or a count and "(EMG (points))".
    function count(line, player,    rest) {
        rest = substr(line, 42)
        if (player == 0) return substr(rest, 1, 24) + 0
        return substr(rest, 25) + 0
    }
    function emg(line, player,    rest, m) {
        rest = (player == 0) ? substr(line, 42, 24) : substr(line, 66)
        if (match(rest, /\(-?[0-9.]+/)) return substr(rest, RSTART + 1, RLENGTH - 1) + 0
        return 0
    }
    /^Player / { p[0] = $2; p[1] = $3 }
    /^Close or actual cube decisions/ { for (i = 0; i < 2; i++) ncl[i] += count($0, i); seen = 1 }
    /^Doubles / { for (i = 0; i < 2; i++) dbl[i] += count($0, i) }
    /^Takes / { for (i = 0; i < 2; i++) tk[i] += count($0, i) }
    /^Passes / { for (i = 0; i < 2; i++) ps[i] += count($0, i) }
    /^Missed doubles/ { for (i = 0; i < 2; i++) { missed[i] += count($0, i); missedE[i] += emg($0, i) } }
    /^Wrong doubles/ { for (i = 0; i < 2; i++) { wdbl[i] += count($0, i); wdblE[i] += emg($0, i) } }
    /^Wrong takes/ { for (i = 0; i < 2; i++) { wtk[i] += count($0, i); wtkE[i] += emg($0, i) } }
    /^Wrong passes/ { for (i = 0; i < 2; i++) { wps[i] += count($0, i); wpsE[i] += emg($0, i) } }
    /^Cube statistics/ { incube = 1 }
    incube && /^Error total EMG/ { for (i = 0; i < 2; i++) { split(substr($0, 42 + 24 * i, 24), f, " "); tot[i] += f[1] } incube = 0 }
    END {
        if (!seen) { print "gnubg_analyse: no statistics"; exit 1 }
        for (i = 0; i < 2; i++)
            printf "%s: %d close or actual cube decisions (doubles %d, takes %d, passes %d), errors: missed doubles %d (%.3f), wrong doubles %d (%.3f), wrong takes %d (%.3f), wrong passes %d (%.3f); error rate %.1f mEMG per decision\n", p[i], ncl[i], dbl[i], tk[i], ps[i], missed[i], missedE[i], wdbl[i], wdblE[i], wtk[i], wtkE[i], wps[i], wpsE[i], (ncl[i] ? -1000 * tot[i] / ncl[i] : 0)
    }'
else
    settings="set analysis chequerplay evaluation plies $ply
set analysis chequerplay evaluation cubeful off
set analysis chequerplay evaluation prune off
set analysis cube off
set analysis luck off"
    report='
    /^Player / { p0 = $2; p1 = $3 }
    /^Unforced moves/ { u0 += $3; u1 += $4; seen = 1 }
    /^Chequerplay statistics/ { inchq = 1 }
    inchq && /^Error total EMG/ { e0 += $5; e1 += $8; inchq = 0 }
    END {
        if (!seen) { print "gnubg_analyse: no statistics"; exit 1 }
        printf "%s: %d unforced moves, error rate %.1f mEMG per move\n", p0, u0, (u0 ? -1000 * e0 / u0 : 0)
        printf "%s: %d unforced moves, error rate %.1f mEMG per move\n", p1, u1, (u1 ? -1000 * e1 / u1 : 0)
    }'
fi
for f in "$@"; do
    {
        echo "set threads 1"
        echo "$settings"
        echo "import mat $f"
        echo "analyse match"
        echo "show statistics match"
    } > "$work/cmds.txt"
    # A home of its own: no race with another gnubg over creating ~/.gnubg
    # where gnubg never ran, and no user settings in the analysis.
    HOME="$work/home" "$gnubg" -t -q < "$work/cmds.txt" 2>&1
done | awk "$report"

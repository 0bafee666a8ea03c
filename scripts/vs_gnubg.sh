#!/usr/bin/env bash
# Cubeless money games of GNU Backgammon against gulbara through gnubg's
# external-player interface; prints gulbara's points per game ± standard
# error (from gnubg's own result lines).
#
#   scripts/vs_gnubg.sh [-n GAMES] [-p GNUBG_PLY] [-j PROCESSES] [-s SEED]
#                       [-v backgammon|short_nardy] [-o DIR] [-c] [-m LENGTH] [-x]
#                       [-- --set KEY=VALUE ...]
#
# e.g. scripts/vs_gnubg.sh -n 1000 -p 0 -j 4 -- --set engine.ply=2
#
# gnubg plays player 0 at the given ply (0 = gnubg's 0-ply: cubeful off,
# prune off, noise 0), gulbara player 1 (`gulbara gnubg-external`, with the
# --set options given after `--`). The cube, the Jacoby rule and beavers
# are off; gnubg does not start games by itself (`set automatic game off`),
# the script asks for each. gnubg polls its socket about every 10 ms, so
# one gnubg process plays 2-3 games a second at most: the games are split
# over PROCESSES gnubg processes, process i with seed SEED+i, each with
# its own gulbara on its own loopback port.
#
# -c plays with the cube (`set cube use on`): money games, gnubg's checker
# play and cube decisions both cubeful at the given ply. -m LENGTH (which
# implies -c) plays GAMES matches to LENGTH points instead of money games
# (Crawford on), and prints gulbara's match-winning % ± standard error; with -x
# the matches are played without the cube.
#
# -o DIR keeps gnubg's exported matches there (match-I.mat), e.g. for
# gnubg's own analysis: gnubg -t < cmds with `import mat DIR/match-0.mat`,
# `analyse match`, `show statistics match`.
#
# Needs gnubg (Debian: apt-get install gnubg) and a release build
# (cargo build --release); GULBARA=path overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

games=100 ply=0 jobs=2 seed=1 variant=backgammon keep="" cube=off length=0 nocube=0
while getopts "n:p:j:s:v:o:cm:x" opt; do
    case $opt in
        n) games=$OPTARG ;;
        p) ply=$OPTARG ;;
        j) jobs=$OPTARG ;;
        s) seed=$OPTARG ;;
        v) variant=$OPTARG ;;
        o) keep=$OPTARG ;;
        c) cube=on ;;
        m) length=$OPTARG cube=on ;;
        x) nocube=1 ;;
        *) sed -n 2,20p "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "$nocube" = 1 ] && cube=off
[ "${1:-}" = "--" ] && shift
extra=("$@")

gnubg=${GNUBG:-/usr/games/gnubg}
bin=${GULBARA:-target/release/gulbara}
[ -x "$gnubg" ] || { echo "vs_gnubg: no gnubg at $gnubg (apt-get install gnubg)" >&2; exit 1; }
[ -x "$bin" ] || { echo "vs_gnubg: no $bin (cargo build --release)" >&2; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

per=$(( (games + jobs - 1) / jobs ))
gnubg_pids=()
for ((i = 0; i < jobs; i++)); do
    n=$per
    if (( (i + 1) * per > games )); then n=$(( games - i * per )); fi
    (( n > 0 )) || continue
    # The log exists before the bridge starts: the loop below reads it at
    # once, and a sed on a file not yet created would end the script.
    : > "$work/bridge-$i.log"
    "$bin" gnubg-external --listen 127.0.0.1:0 --variant "$variant" "${extra[@]}" \
        2> "$work/bridge-$i.log" &
    pids+=($!)
    addr=""
    for _ in $(seq 1 200); do
        addr=$(sed -n 's/^gnubg-external listening on //p' "$work/bridge-$i.log" | head -1)
        [ -n "$addr" ] && break
        sleep 0.05
    done
    [ -n "$addr" ] || { echo "vs_gnubg: bridge $i did not start" >&2; cat "$work/bridge-$i.log" >&2; exit 1; }
    {
        echo "set player 0 name gnubg"
        echo "set player 1 name gulbara"
        echo "set player 0 gnubg"
        echo "set player 0 chequerplay evaluation plies $ply"
        if [ "$cube" = on ]; then
            echo "set player 0 chequerplay evaluation cubeful on"
            echo "set player 0 cubedecision evaluation plies $ply"
            echo "set player 0 cubedecision evaluation cubeful on"
            echo "set player 0 cubedecision evaluation prune off"
            echo "set player 0 cubedecision evaluation noise 0"
        else
            echo "set player 0 chequerplay evaluation cubeful off"
        fi
        echo "set player 0 chequerplay evaluation prune off"
        echo "set player 0 chequerplay evaluation noise 0"
        echo "set cube use $cube"
        echo "set jacoby off"
        echo "set beavers 0"
        if (( length > 0 )); then echo "set automatic game on"; else echo "set automatic game off"; fi
        echo "set seed $((seed + i))"
        echo "set player 1 external $addr"
        # After `external`, which renames the player.
        echo "set player 1 name gulbara"
        if (( length > 0 )); then
            echo "set matchlength $length"
            for ((g = 0; g < n; g++)); do
                echo "new match $length"
                echo "export match mat $work/match-$i-$g.mat"
            done
        else
            for ((g = 0; g < n; g++)); do echo "new game"; done
            echo "export match mat $work/match-$i.mat"
        fi
    } > "$work/cmds-$i.txt"
    # Each gnubg gets a home of its own: started together where gnubg never
    # ran, they would race to create ~/.gnubg and the losers exit.
    mkdir "$work/home-$i"
    HOME="$work/home-$i" "$gnubg" -t -q < "$work/cmds-$i.txt" > "$work/out-$i.txt" 2>&1 &
    gnubg_pids+=($!)
done
for p in "${gnubg_pids[@]}"; do wait "$p"; done

# "gulbara has won the match." / "gnubg has won the match."
if (( length > 0 )); then
    cat "$work"/out-*.txt | tr '\r' '\n' | grep -ao '[A-Za-z0-9_]* has won the match' | awk -v L="$length" '
        # gnubg names player 1 after the login in a match, whatever it was set to.
        { n++; if ($1 != "gnubg") w++ }
        END {
            if (n == 0) { print "vs_gnubg: no finished matches"; exit 1 }
            p = w / n
            printf "matches %d (to %d) gulbara wins %d = %.1f%% se %.1f%%\n", n, L, w, 100 * p, 100 * sqrt(p * (1 - p) / n)
        }'
else
# "gulbara wins a gammon and 2 points." / "gnubg wins a single game and 1 point."
cat "$work"/out-*.txt | awk '
    /^(gnubg|gulbara) wins .* and [0-9]+ points?\.$/ {
        pts = $(NF - 1)
        v = ($1 == "gulbara") ? pts : -pts
        n++; s += v; ss += v * v
        if ($1 == "gulbara") w++
    }
    /badly formed|^Error \(/ { bad++ }
    END {
        if (n == 0) { print "vs_gnubg: no finished games"; exit 1 }
        m = s / n
        var = (n > 1) ? (ss - n * m * m) / (n - 1) : 0
        printf "games %d gulbara wins %d ppg %+.3f se %.3f%s\n", n, w, m, sqrt(var / n), (bad ? "  (gnubg complained " bad " times)" : "")
    }'
fi
for mat in "$work"/match-*.mat; do
    [ -f "$mat" ] || continue
    "$bin" replay "$mat" > /dev/null || echo "vs_gnubg: $(basename "$mat"): gulbara's referee rejects the record" >&2
    if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$mat" "$keep/"; fi
done
